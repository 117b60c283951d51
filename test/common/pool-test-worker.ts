/** A worker entry for the pool's own tests: tasks that answer, fail, spin, crash and exhaust memory. */
import { readlinkSync } from 'node:fs';
import { getPriority } from 'node:os';
import { threadId } from 'node:worker_threads';
import { ToolCallError } from '../../tools/core/result';
import { serveTasks } from '../../tools/common/worker-runtime';

const tasks = {
  echo: (input: unknown) => ({ input, threadId }),
  spin: () => {
    for (;;);
  },
  fail: () => {
    throw new ToolCallError('INVALID_ARGUMENT', 'The input is bad.', { hint: 'Fix it.', data: { fields: ['x'] } });
  },
  crash: () => process.exit(7),
  niceness: () => getPriority(Number(readlinkSync('/proc/thread-self').split('/').pop())),
  hoard: () => {
    const kept: number[][] = [];
    for (;;) kept.push(new Array(1_000_000).fill(1));
  },
};

serveTasks(Object.fromEntries(Object.entries(tasks).map(([kind, task]) => [kind, async () => task])));
