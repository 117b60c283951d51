/** Runs a structured task in the host's CPU worker pool; the task table is known here by type only. */
import { cpuTasks } from '../common/cpu-pool';
import type { StructuredCpuTasks } from './cpu-tasks';

export const runStructured = cpuTasks<StructuredCpuTasks>();
