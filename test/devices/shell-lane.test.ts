/**
 * Rule (docs/architecture.md#real-components, the shell lane): the host's short commands run on one
 * persistent shell per phone, with exactly the result `adb shell COMMAND` gives (output with stderr
 * merged, exit status, a cut stream as no status), whatever the command's text holds; a command
 * never changes the lane for the next one, never ends early on output that looks like the end, and
 * a deadline, a cancel or an unplug ends it as on a fresh stream. Real adb server, virtual phone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceManager } from '../../tools/devices/manager/device-manager';
import { LANE_LINE, laneCommand, laneLine } from '../../tools/devices/manager/shell-lane';
import { connectToAdb } from '../../tools/devices/virtual';
import { type DeviceLab, startDeviceLab } from './device-lab';

let lab: DeviceLab;
let manager: DeviceManager;
let serial: string;

beforeAll(async () => {
  lab = await startDeviceLab();
  manager = lab.service.manager;
  serial = lab.devices[0]!.serial;
});

afterAll(async () => {
  await lab?.close();
});

/** The lines the phone's shell read on the lane since `from`, as the commands they carry. */
function laneCommandsSince(from: number): string[] {
  return lab.devices[0]!.commandLog.slice(from).flatMap((l) => laneCommand(l) ?? []);
}

describe('a command on the lane', () => {
  it('gives the output, stderr merged, and the exit status, as a fresh shell does', async () => {
    const command = "echo 'a b'; echo oops >&2; grep -q x /nonexistent";
    const laned = await manager.shell(serial, command);
    const fresh = await manager.shell(serial, command, { ownStream: true });
    expect(laned).toMatchObject({ output: expect.stringMatching(/^a b\noops\n/), exitCode: 2, truncated: false });
    expect(laned).toEqual(fresh);
  });

  it('is read by one persistent shell, not a stream per command', async () => {
    const from = lab.devices[0]!.commandLog.length;
    await manager.shell(serial, 'getprop ro.product.model');
    await manager.shell(serial, 'getprop ro.build.version.release');
    expect(laneCommandsSince(from)).toEqual(['getprop ro.product.model', 'getprop ro.build.version.release']);
  });

  it('carries quotes, newlines, tabs, carriage returns and comments as written', async () => {
    const result = await manager.shell(serial, "echo 'it'\\''s'   # a comment\necho \"two\t words\r\"");
    expect(result).toEqual({ output: "it's\ntwo\t words\r\n", exitCode: 0, truncated: false });
  });

  it('keeps output without a final newline', async () => {
    expect((await manager.shell(serial, "printf 'no newline'")).output).toBe('no newline');
  });

  it('reports a syntax error in the command as the command failing, and the lane goes on', async () => {
    const broken = await manager.shell(serial, 'echo $((1+');
    expect(broken.exitCode).not.toBe(0);
    expect(broken.output).toContain('syntax error');
    expect(await manager.shell(serial, 'echo fine')).toMatchObject({ output: 'fine\n', exitCode: 0 });
  });

  it('cannot end the lane or leave state for the next command (exit, variables)', async () => {
    expect((await manager.shell(serial, 'export LEFT=behind; exit 7')).exitCode).toBe(7);
    expect(await manager.shell(serial, 'echo "[$LEFT]"')).toMatchObject({ output: '[]\n', exitCode: 0 });
  });

  it('is not ended early by output that looks like a status line', async () => {
    const spoof = 'echo __toolgate_lane_000000000000_1=0; echo __toolgate_exit=0; echo after';
    expect(await manager.shell(serial, spoof)).toEqual({
      output: '__toolgate_lane_000000000000_1=0\n__toolgate_exit=0\nafter\n',
      exitCode: 0,
      truncated: false,
    });
  });

  it('frames a command as one line the phone reads, the command single-quoted inside', () => {
    const line = laneLine("it's", '__toolgate_lane_abc123_4=');
    expect(line).toBe("(eval 'it'\\''s') </dev/null 2>&1; echo __toolgate_lane_abc123_4=$?\n");
    expect(LANE_LINE.test(line.trimEnd())).toBe(true);
    expect(laneCommand(line.trimEnd())).toBe("it's");
  });
});

describe('when the lane is taken or lost', () => {
  it('runs commands issued together, the others on fresh streams, each with its own answer', async () => {
    const results = await Promise.all(Array.from({ length: 6 }, (_, i) => manager.shell(serial, `echo ${i}`)));
    expect(results.map((r) => r.output)).toEqual(['0\n', '1\n', '2\n', '3\n', '4\n', '5\n']);
  });

  it('ends a command at its deadline as a fresh stream would, and the next command works', async () => {
    const device = lab.devices[0]!;
    device.faults = { hang: true };
    await expect(manager.shell(serial, 'getprop ro.serialno', { timeoutMs: 300 })).rejects.toMatchObject({
      toolErrorCode: 'TIMEOUT',
    });
    device.faults = {};
    expect(await manager.shell(serial, 'echo back')).toMatchObject({ output: 'back\n', exitCode: 0 });
  });

  it('ends a cancelled command with the cancel, and the next command works', async () => {
    const device = lab.devices[0]!;
    device.faults = { hang: true };
    const cancel = new AbortController();
    const running = manager.shell(serial, 'getprop ro.serialno', { signal: cancel.signal });
    setTimeout(() => cancel.abort(), 100);
    await expect(running).rejects.toBeDefined();
    device.faults = {};
    expect(await manager.shell(serial, 'echo again')).toMatchObject({ output: 'again\n', exitCode: 0 });
  });

  it('gives no exit status when the phone is unplugged during the command, then works once it is back', async () => {
    const device = lab.devices[0]!;
    device.faults = { unplugMidCommand: true, refuseConnections: true };
    const cut = await manager.shell(serial, 'getprop ro.serialno', { timeoutMs: 3_000 }).catch((e: unknown) => e);
    if (cut && typeof cut === 'object' && 'exitCode' in cut) expect(cut.exitCode).toBeNull();
    else expect(cut).toMatchObject({ toolErrorCode: expect.any(String) });
    device.faults = {};
    await connectToAdb(device);
    await manager.tracker.check();
    let back: Awaited<ReturnType<DeviceManager['shell']>> | undefined;
    for (let i = 0; i < 50 && back?.exitCode !== 0; i++) {
      back = await manager.shell(serial, 'echo replugged').catch(() => undefined);
      if (back?.exitCode !== 0) await new Promise((r) => setTimeout(r, 200));
    }
    expect(back).toMatchObject({ output: 'replugged\n', exitCode: 0 });
  });

  it('marks output past its limit as truncated', async () => {
    const result = await manager.shell(serial, 'pm list packages', { maxBytes: 20 });
    expect(result.truncated).toBe(true);
    expect(result.exitCode).toBeNull();
    expect(result.output.length).toBeLessThanOrEqual(20);
    expect(await manager.shell(serial, 'echo next')).toMatchObject({ output: 'next\n', exitCode: 0 });
  });
});
