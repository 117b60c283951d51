/**
 * The structured family's worker tasks, by name. Only the CPU worker entry imports this table;
 * the tools reach it through `runStructured` (cpu.ts), which knows it by type alone.
 */
import type { CpuTaskTable } from '../common/worker-protocol';
import { csvQueryTask } from './csv-work';
import { diffTask } from './diff-work';
import { distanceTask } from './distance-work';
import { hashTextTask } from './hash-work';
import { jsonPathTask } from './json-path-work';
import { extractTask, replaceTask } from './regex-work';
import { xmlExtractTask } from './xml-work';

export const structuredCpuTasks = {
  'regex.extract': extractTask,
  'regex.replace': replaceTask,
  'string.distance': distanceTask,
  'text.diff': diffTask,
  'csv.query': csvQueryTask,
  'json.path': jsonPathTask,
  'xml.extract': xmlExtractTask,
  'hash.text': hashTextTask,
} satisfies CpuTaskTable;

export type StructuredCpuTasks = typeof structuredCpuTasks;
