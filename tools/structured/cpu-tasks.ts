/**
 * The structured family's worker tasks, by name. The CPU worker entry imports the loaders, each
 * thread loading a task's module on its first use; the tools reach the tasks through
 * `runStructured` (cpu.ts), which knows them by type alone.
 */
import type { CpuTaskLoaders } from '../common/worker-protocol';
import type { csvQueryTask } from './csv-work';
import type { diffTask } from './diff-work';
import type { distanceTask } from './distance-work';
import type { hashTextTask } from './hash-work';
import type { jsonPathTask } from './json-path-work';
import type { extractTask, replaceTask } from './regex-work';
import type { xmlExtractTask } from './xml-work';

export interface StructuredCpuTasks {
  'regex.extract': typeof extractTask;
  'regex.replace': typeof replaceTask;
  'string.distance': typeof distanceTask;
  'text.diff': typeof diffTask;
  'csv.query': typeof csvQueryTask;
  'json.path': typeof jsonPathTask;
  'xml.extract': typeof xmlExtractTask;
  'hash.text': typeof hashTextTask;
}

export const structuredCpuTasks: CpuTaskLoaders<StructuredCpuTasks> = {
  'regex.extract': async () => (await import('./regex-work')).extractTask,
  'regex.replace': async () => (await import('./regex-work')).replaceTask,
  'string.distance': async () => (await import('./distance-work')).distanceTask,
  'text.diff': async () => (await import('./diff-work')).diffTask,
  'csv.query': async () => (await import('./csv-work')).csvQueryTask,
  'json.path': async () => (await import('./json-path-work')).jsonPathTask,
  'xml.extract': async () => (await import('./xml-work')).xmlExtractTask,
  'hash.text': async () => (await import('./hash-work')).hashTextTask,
};
