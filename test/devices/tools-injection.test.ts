/**
 * Rule (docs/architecture.md#tool-families): no model-supplied string is ever pasted into a device
 * command line, on any family of phones. Every string argument of every device tool (shell_execute's
 * command excepted: its gate is tested in tools-shell) is sent a corpus of shell injection payloads on
 * each virtual phone profile; the virtual device's
 * record of every simple command its shell ran or tried to run proves that no payload became a
 * command, no file was written by a redirection, and nothing rebooted. NUL is refused as
 * INVALID_ARGUMENT.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROFILE_NAMES, type VirtualDevice } from '../../tools/devices/virtual';
import { type DeviceLab, startDeviceLab, textOf } from './device-lab';

const PAYLOADS = [
  '; pwned',
  '&& pwned',
  '|| pwned',
  '| pwned',
  '& pwned &',
  '$(pwned)',
  '`pwned`',
  '"$(pwned)"',
  '\npwned',
  '\r\npwned',
  "'; pwned; '",
  '"; pwned; "',
  "' $(pwned) '",
  "\\'; pwned #",
  '> /data/local/tmp/pwned',
  '>> /data/local/tmp/pwned',
  '< /data/local/tmp/pwned',
  '${IFS}pwned',
  '%s;pwned',
  '#; pwned',
  'com.example.notes; pwned',
  '.MainActivity;pwned',
  'e1;pwned',
  'a\u0000; pwned',
];

/** Every command name the device tools themselves run. */
const TOOL_COMMANDS = new Set([
  // The shell lane runs each command the host wrote as `(eval 'COMMAND')`: the commands inside are
  // recorded on their own and checked like any other.
  'eval',
  'echo',
  'getprop',
  'wm',
  'dumpsys',
  'grep',
  'pm',
  'am',
  'monkey',
  'pidof',
  'cmd',
  'settings',
  'date',
  'logcat',
  'uiautomator',
  'screencap',
  'input',
  'ime',
  'rm',
]);

/** Valid arguments for each tool, so the payload is the only thing wrong. */
const BASE: Record<string, Record<string, unknown>> = {
  shell_execute: { command: 'echo base' },
  app_list: { filter: 'example' },
  app_launch: { packageName: 'com.example.notes', activity: '.MainActivity' },
  app_install: { path: 'com.acme.safe.apk' },
  app_uninstall: { packageName: 'com.acme.absent' },
  app_force_stop: { packageName: 'com.example.shop' },
  app_info: { packageName: 'com.example.notes' },
  get_device_info: {},
  get_set_settings: { action: 'put', namespace: 'system', key: 'tg_probe', value: 'v' },
  control_media: { action: 'pause' },
  clipboard: { action: 'set', text: 'hello' },
  get_time: {},
  logcat: { tag: 'ActivityManager', grep: 'Start', packageName: 'com.example.notes', level: 'I', lines: 5 },
  ui_tap: { ref: 'e1' },
  ui_swipe: { direction: 'up', ref: 'e1' },
  ui_dump: {},
  screenshot: { scale: 0.1 },
  input_text: { text: 'hello' },
  get_location: {},
  notification_read: { packageName: 'com.example.shop' },
};

function stringFields(schema: Record<string, unknown>): string[] {
  const properties = (schema.properties ?? {}) as Record<string, { type?: string; enum?: unknown[] }>;
  return Object.entries(properties)
    .filter(([, p]) => p.type === 'string' || (Array.isArray(p.enum) && p.enum.every((v) => typeof v === 'string')))
    .map(([name]) => name);
}

describe.each(PROFILE_NAMES)('on the %s profile', (profile) => {
  let lab: DeviceLab;
  let device: VirtualDevice;

  beforeAll(async () => {
    lab = await startDeviceLab({
      profile,
      approveCommand: async () => ({ decision: 'approve_once' }),
    });
    device = lab.devices[0]!;
    writeFileSync(join(lab.workspace, 'com.acme.safe.apk'), 'package=com.acme.safe\n');
    await lab.call('app_launch', { packageName: 'com.example.notes' });
    await lab.call('ui_dump');
  });

  afterAll(async () => {
    await lab?.close();
  });

  /**
   * Puts the phone where the tool does its whole work, so every payload goes all the way to the
   * device: input_text types into a focused field. (Typing into nothing fails, and five such
   * failures in a row open input_text's breaker for the phone, as they would for an agent.)
   */
  async function prepare(toolId: string): Promise<void> {
    if (toolId !== 'input_text' || !device.phone.hardware.injectionAllowed()) return;
    await lab.call('app_launch', { packageName: 'com.example.notes', activity: '.MainActivity' });
    const dump = textOf(await lab.call('ui_dump'));
    expect((await lab.call('ui_tap', { ref: /\b(e\d+)\b[^\n]*id=note_input/.exec(dump)![1]! })).ok).toBe(true);
  }

  it('covers all twenty tools, each described (its fields as test/host/description-style.test.ts says)', () => {
    expect(
      lab.registry
        .list()
        .map((t) => t.id)
        .sort(),
    ).toEqual(Object.keys(BASE).sort());
    for (const tool of lab.registry.list()) expect(tool.description.length, tool.id).toBeGreaterThan(40);
  });

  for (const toolId of Object.keys(BASE)) {
    it(`${toolId}: no payload in any string argument runs a command`, async () => {
      const tool = lab.registry.get(toolId)!;
      const fields = stringFields(tool.inputSchema).filter((f) => !(toolId === 'shell_execute' && f === 'command'));
      expect(fields).toContain('serial');
      await prepare(toolId);
      for (const field of fields) {
        for (const payload of PAYLOADS) {
          const from = device.executedCommands.length;
          const args = { ...BASE[toolId], [field]: payload };
          const result = await lab.call(toolId, args);
          const ran = device.executedCommands.slice(from);
          const where = `${toolId}.${field} = ${JSON.stringify(payload)}`;
          for (const argv of ran) {
            expect(argv[0], `${where} ran ${JSON.stringify(argv)}`).not.toMatch(/pwned/);
            expect(TOOL_COMMANDS.has(argv[0] ?? ''), `${where} ran ${JSON.stringify(argv)}`).toBe(true);
          }
          if (payload.includes('\u0000')) {
            expect(result.ok, where).toBe(false);
            if (!result.ok) expect(result.error.code, where).toBe('INVALID_ARGUMENT');
          }
        }
      }
      expect(device.phone.fs.stat('/data/local/tmp/pwned')).toBeFalsy();
      expect(device.phone.rebootRequests).toEqual([]);
    });
  }

  it('delivered the payloads verbatim where they are data', async () => {
    await lab.call('get_set_settings', { action: 'put', namespace: 'system', key: 'tg_probe', value: '"; pwned; "' });
    expect(device.phone.services.settings.system.get('tg_probe')).toBe('"; pwned; "');
    if (!device.phone.hardware.injectionAllowed()) return;
    await lab.call('app_launch', { packageName: 'com.example.notes', activity: '.MainActivity' });
    const dump = textOf(await lab.call('ui_dump'));
    await lab.call('ui_tap', { ref: /\b(e\d+)\b[^\n]*id=note_input/.exec(dump)![1]! });
    device.phone.setFieldText('com.example.notes', 'com.example.notes:id/note_input', '');
    await lab.call('input_text', { text: "' $(pwned) '" });
    expect(device.phone.fieldText('com.example.notes', 'com.example.notes:id/note_input')).toBe("' $(pwned) '");
  });
});
