/** The utility family's worker tasks, by name; only the CPU worker entry imports this table. */
import type { CpuTaskTable } from '../common/worker-protocol';
import { calculateTask } from './math-work';
import { textTransformTask } from './text-work';

export const utilityCpuTasks = {
  'math.calculate': calculateTask,
  'text.transform': textTransformTask,
} satisfies CpuTaskTable;

export type UtilityCpuTasks = typeof utilityCpuTasks;
