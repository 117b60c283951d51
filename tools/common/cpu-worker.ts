/**
 * The CPU worker entry: every task of the host's worker pool, loaded once per thread. It is the
 * one file of tools/common that knows the families, because a bundler must see every task
 * statically to emit this entry as one file (electron.vite.config.ts builds it as
 * out/main/cpu-worker.js); the families' tool modules never import it.
 */
import { structuredCpuTasks } from '../structured/cpu-tasks';
import { utilityCpuTasks } from '../utility/cpu-tasks';
import { serveTasks } from './worker-runtime';

serveTasks({ ...structuredCpuTasks, ...utilityCpuTasks });
