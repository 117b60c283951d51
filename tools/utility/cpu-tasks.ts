/**
 * The utility family's worker tasks, by name: loaders for the CPU worker entry, and their types
 * for `runUtility` (cpu.ts). mathjs takes a third of a second to load, so only a thread that
 * gets a calculation loads it.
 */
import type { CpuTaskLoaders } from '../common/worker-protocol';
import type { calculateTask } from './math-work';
import type { textTransformTask } from './text-work';

export interface UtilityCpuTasks {
  'math.calculate': typeof calculateTask;
  'text.transform': typeof textTransformTask;
}

export const utilityCpuTasks: CpuTaskLoaders<UtilityCpuTasks> = {
  'math.calculate': async () => (await import('./math-work')).calculateTask,
  'text.transform': async () => (await import('./text-work')).textTransformTask,
};
