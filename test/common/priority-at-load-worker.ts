/** A worker entry that notes its thread's priority as its module loads, before serveTasks runs. */
import { readlinkSync } from 'node:fs';
import { getPriority } from 'node:os';
import { serveTasks } from '../../tools/common/worker-runtime';

const atLoad = getPriority(Number(readlinkSync('/proc/thread-self').split('/').pop()));

serveTasks({ nicenessAtLoad: async () => () => atLoad });
