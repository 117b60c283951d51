/** Runs a utility task in the host's CPU worker pool; the task table is known here by type only. */
import { cpuTasks } from '../common/cpu-pool';
import type { UtilityCpuTasks } from './cpu-tasks';

export const runUtility = cpuTasks<UtilityCpuTasks>();
