/**
 * Runs a virtual device on its own, for trying it by hand:
 *   npx tsx tools/devices/virtual/main.ts [--port 5555] [--profile pixel] [--time-scale 1] [--model NAME]
 *     [--no-connect]
 * It connects itself to the local adb server unless told not to, and stops on Ctrl-C.
 */
import { parseArgs } from 'node:util';
import { PROFILE_NAMES, connectToAdb, disconnectFromAdb, isProfileName, startVirtualDevice } from './index';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      profile: { type: 'string', default: 'pixel' },
      'time-scale': { type: 'string', default: '0' },
      model: { type: 'string' },
      'no-connect': { type: 'boolean', default: false },
    },
  });
  if (!isProfileName(values.profile)) throw new Error(`--profile must be one of ${PROFILE_NAMES.join(', ')}`);
  const device = await startVirtualDevice({
    port: Number(values.port),
    profile: values.profile,
    timeScale: Number(values['time-scale']) || 0,
    ...(values.model ? { model: values.model } : {}),
  });
  if (!values['no-connect']) await connectToAdb(device);
  console.log(
    `virtual device listening on ${device.serial} ` +
      `as ${values.profile}${values['no-connect'] ? '' : ' (connected to adb)'}`,
  );
  const stop = async (): Promise<void> => {
    if (!values['no-connect']) await disconnectFromAdb(device);
    await device.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
