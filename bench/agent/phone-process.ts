/**
 * The virtual phone of the agent benchmark, in a process of its own (a phone is its own machine):
 * started and connected to the adb server that ANDROID_ADB_SERVER_PORT names, then telling its
 * parent over IPC which command lines it received, so the benchmark can replay exactly what a tool
 * sent. Run by bench/agent.bench.ts through child_process.fork.
 */
import { COMMAND_LOG_LIMIT } from '../../tools/devices/virtual/bounded-log';
import { connectToAdb, disconnectFromAdb, startVirtualDevice } from '../../tools/devices/virtual';

export type PhoneRequest = { id: number; type: 'since'; from: number } | { id: number; type: 'stop' };

export interface PhoneReply {
  id: number;
  /** How many command lines the log holds now: the `from` of the next request. */
  length?: number;
  lines?: string[];
  serial?: string;
  error?: string;
}

async function main(): Promise<void> {
  const device = await startVirtualDevice({ profile: 'pixel', timeScale: 0 });
  await connectToAdb(device);
  const log = device.commandLog;
  process.on('message', (message: PhoneRequest) => {
    if (message.type === 'since') {
      // Past its limit the log drops its oldest lines and positions shift: say so rather than guess.
      const error = log.length >= COMMAND_LOG_LIMIT ? 'the command log is full' : undefined;
      const reply: PhoneReply = { id: message.id, length: log.length, lines: log.slice(message.from) };
      process.send?.(error ? { ...reply, error } : reply);
      return;
    }
    void disconnectFromAdb(device)
      .then(() => device.close())
      .finally(() => process.send?.({ id: message.id } satisfies PhoneReply, () => process.exit(0)));
  });
  // A bench that died leaves no phone behind.
  process.once('disconnect', () => void device.close().finally(() => process.exit(0)));
  process.send?.({ id: 0, serial: device.serial } satisfies PhoneReply);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
