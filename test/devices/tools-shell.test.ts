/**
 * Rule (docs/architecture.md#tool-families, shell, docs/architecture.md#approval-gate, self-gated
 * tools): shell_execute judges every simple command in the line — through `;` `&&` `||` `|`
 * newlines, `( … )`, `$( … )` and backticks, also inside quotes — and the most dangerous decides:
 * read-only lines run, refused lines never reach the device, the rest run only after a person
 * approves through the command-approval port. The pipeline does not ask again at tool level. Output
 * is bounded and streamed as progress.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalDecision, ProgressUpdate } from '../../tools/core';
import { type CommandApprovalRequest, deviceTools, judgeCommandLine } from '../../tools/devices';
import type { VirtualDevice } from '../../tools/devices/virtual';
import { familyPipeline } from '../support/family-pipeline';
import { type DeviceLab, startDeviceLab, textOf } from './device-lab';

let lab: DeviceLab;
let device: VirtualDevice;
const asked: CommandApprovalRequest[] = [];
let answer: ApprovalDecision = { decision: 'deny', reason: 'not now' };

beforeAll(async () => {
  lab = await startDeviceLab({
    approveCommand: async (request) => {
      asked.push(request);
      return answer;
    },
  });
  device = lab.devices[0]!;
});

afterAll(async () => {
  await lab?.close();
});

describe('the command-level verdict', () => {
  const cases: [string, 'read' | 'ask' | 'deny'][] = [
    ['ls -l /sdcard', 'read'],
    ['getprop ro.product.model; dumpsys battery | grep level', 'read'],
    ['pm list packages -3 && ps -A || df -h', 'read'],
    ['wm size', 'read'],
    ['date +%s', 'read'],
    ['logcat -d -t 20 2>/dev/null', 'read'],
    ['cat /proc/meminfo | head -5', 'read'],
    ['echo `id`', 'read'],
    ['input tap 10 20', 'ask'],
    ['am start -n com.example.notes/.MainActivity', 'ask'],
    ['pm uninstall com.example.shop', 'ask'],
    ['settings put system screen_brightness 10', 'ask'],
    ['ls > /sdcard/listing.txt', 'ask'],
    ['rm -rf /sdcard/Download/old', 'ask'],
    ['wm size 100x100', 'ask'],
    ['logcat -c', 'ask'],
    ['$CMD', 'ask'],
    ['echo "unterminated', 'ask'],
    ['some_unknown_tool --flag', 'ask'],
    ['reboot', 'deny'],
    ['echo hi\nreboot', 'deny'],
    ['echo "$(reboot)"', 'deny'],
    ['echo `su -c id`', 'deny'],
    ['ls; rm -rf /system', 'deny'],
    ['rm -rf /', 'deny'],
    ['rm -fr /sdcard/', 'deny'],
    ['rm -rf *', 'deny'],
    ['busybox rm -rf /data', 'deny'],
    ['sh -c "rm -rf /data/data"', 'deny'],
    ['eval reboot', 'deny'],
    ['env X=1 reboot', 'deny'],
    ['x=$(dd if=/dev/zero of=/dev/block/mmcblk0)', 'deny'],
    ['mkfs.ext4 /dev/block/sda1', 'deny'],
    ['setprop persist.sys.usb.config none', 'deny'],
    ['svc power shutdown', 'deny'],
    ['settings put global adb_enabled 0', 'deny'],
    ['(cd / && /system/bin/reboot recovery)', 'deny'],
    ['for f in a b; do reboot; done', 'deny'],
  ];
  it.each(cases)('%j is %s', (line, verdict) => {
    expect(judgeCommandLine(line).verdict).toBe(verdict);
  });

  it('names what decided the verdict', () => {
    expect(judgeCommandLine('ls; reboot').reasons).toEqual(['`reboot`: restarts the device']);
  });
});

describe('shell_execute', () => {
  it('is HIGH risk, destructive and self-gated', () => {
    const tool = lab.registry.get('shell_execute')!;
    expect(tool.selfGated).toBe(true);
    expect(tool.metadata.risk).toBe('HIGH');
    expect(tool.metadata.annotations.destructiveHint).toBe(true);
  });

  it('refuses a dangerous line without asking and without sending anything to the device', async () => {
    const before = device.commandLog.length;
    const result = await lab.call('shell_execute', { command: 'echo ok; reboot' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('PERMISSION_DENIED');
      expect(result.error.message).toContain('`reboot`: restarts the device');
      expect(result.error.hint).toMatch(/do not retry/);
    }
    expect(device.commandLog.length).toBe(before);
    expect(device.phone.rebootRequests).toEqual([]);
    expect(asked).toHaveLength(0);
  });

  it('runs a read-only line without asking and returns output and exit status', async () => {
    const result = await lab.call('shell_execute', { command: 'getprop ro.product.model; ls /nope' });
    expect(textOf(result)).toBe('Pixel 8\nls: /nope: No such file or directory\n[exit status 1]');
    expect((result as { structured: { exitCode: number; verdict: string } }).structured).toMatchObject({
      exitCode: 1,
      verdict: 'read',
    });
    expect(asked).toHaveLength(0);
  });

  it('reports the exit status even when the line exits the shell', async () => {
    expect(textOf(await lab.call('shell_execute', { command: 'echo bye; exit 7' }))).toBe('bye\n[exit status 7]');
  });

  it('asks about a changing line and does not run it when the person denies', async () => {
    answer = { decision: 'deny', reason: 'not on this phone' };
    const result = await lab.call('shell_execute', { command: 'input keyevent KEYCODE_HOME' });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('PERMISSION_DENIED');
      expect(result.error.message).toBe('The user denied running `input keyevent KEYCODE_HOME`: not on this phone');
    }
    expect(asked.at(-1)).toMatchObject({
      toolId: 'shell_execute',
      command: 'input keyevent KEYCODE_HOME',
      serial: device.serial,
      risk: 'HIGH',
    });
    expect(asked.at(-1)?.reasons[0]).toMatch(/input is not known to be read-only/);
    expect(device.executedCommands.some((a) => a[0] === 'input')).toBe(false);
  });

  it('runs it after approval once, and asks again next time', async () => {
    answer = { decision: 'approve_once' };
    await lab.call('app_launch', { packageName: 'com.example.notes' });
    const n = asked.length;
    expect(textOf(await lab.call('shell_execute', { command: 'input keyevent KEYCODE_HOME' }))).toBe(
      '(no output)\n[exit status 0]',
    );
    expect(device.phone.foreground().packageName).toBe('com.android.launcher3');
    await lab.call('shell_execute', { command: 'input keyevent KEYCODE_HOME' });
    expect(asked.length).toBe(n + 2);
  });

  it('remembers an approval for the session, for that exact command only', async () => {
    answer = { decision: 'approve_session' };
    await lab.call('shell_execute', { command: 'input keyevent KEYCODE_BACK' }, { sessionId: 's1' });
    const n = asked.length;
    answer = { decision: 'deny' };
    expect((await lab.call('shell_execute', { command: 'input keyevent KEYCODE_BACK' }, { sessionId: 's1' })).ok).toBe(
      true,
    );
    expect(asked.length).toBe(n);
    expect((await lab.call('shell_execute', { command: 'input keyevent KEYCODE_BACK' }, { sessionId: 's2' })).ok).toBe(
      false,
    );
    expect((await lab.call('shell_execute', { command: 'input keyevent KEYCODE_HOME' }, { sessionId: 's1' })).ok).toBe(
      false,
    );
  });

  it('denies changing lines when no approver is connected', async () => {
    const tools = deviceTools({ service: lab.service, workspaceRoot: lab.workspace });
    const shell = tools.find((t) => t.id === 'shell_execute')!;
    const family = familyPipeline({ tools: [shell] });
    const result = await family.call('shell_execute', { command: 'input tap 1 1' });
    expect(!result.ok && result.error.message).toMatch(/no approver is connected/);
    expect((await family.call('shell_execute', { command: 'echo fine' })).ok).toBe(true);
    expect(family.approvals).toEqual([]);
  });

  it('is not asked about again by the pipeline approval gate (self-gated)', async () => {
    const family = familyPipeline({
      tools: deviceTools({
        service: lab.service,
        workspaceRoot: lab.workspace,
        approveCommand: async () => ({ decision: 'approve_once' }),
      }),
      decide: () => ({ decision: 'deny' }),
    });
    const toolLevel = family.approvals;
    expect((await family.call('shell_execute', { command: 'input keyevent KEYCODE_HOME' })).ok).toBe(true);
    expect(toolLevel).toHaveLength(0);
    const uninstall = await family.call('app_uninstall', { packageName: 'com.example.shop' });
    expect(!uninstall.ok && uninstall.error.code).toBe('PERMISSION_DENIED');
    expect(toolLevel.map((r) => r.toolId)).toEqual(['app_uninstall']);
    expect(device.phone.getPackage('com.example.shop')).toBeDefined();
  });

  it('bounds the output at 64 KB with a note, and streams it as progress', async () => {
    device.phone.fs.seed('/sdcard/big.txt', `${'0123456789abcdef'.repeat(8 * 1024)}TAIL-NEVER-SEEN\n`);
    const progress: ProgressUpdate[] = [];
    const result = await lab.call(
      'shell_execute',
      { command: 'cat /sdcard/big.txt' },
      { onProgress: (p) => progress.push(p) },
    );
    const text = textOf(result);
    expect(text).toMatch(/\[output truncated at 64 KB and the command was stopped; narrow it/);
    expect(text).not.toContain('TAIL-NEVER-SEEN');
    expect((result as { structured: { bytes: number; truncated: boolean } }).structured).toMatchObject({
      bytes: 64 * 1024,
      truncated: true,
    });
    expect(progress.length).toBeGreaterThan(0);
    expect(progress.map((p) => p.message).join('')).toMatch(/^(0123456789abcdef)+/);
  });

  it('rejects an empty command and an out-of-range timeout', async () => {
    expect((await lab.call('shell_execute', { command: '' })).ok).toBe(false);
    const slow = await lab.call('shell_execute', { command: 'echo', timeoutMs: 10 });
    expect(!slow.ok && slow.error.code).toBe('INVALID_ARGUMENT');
  });
});
