/**
 * Rule (docs/architecture.md#shortcuts): a precondition names a telemetry key the host has (the
 * catalogue shortcut_define lists in its schema); another key is refused when the shortcut is
 * defined, naming the keys there are. `{param}` in a key is the shortcut's parameter, so the
 * shortcut checks the device it is given; a parameter used only there counts as used. An unknown
 * value lets the run through (fail-open).
 */
import { describe, expect, it } from 'vitest';
import type { ShortcutDefinition } from '../../tools/orchestration';
import { PRECONDITION_KEYS } from '../../tools/host/precondition-keys';
import { errorOf, makeKit } from './fixtures';

const onDevice = (key: string): ShortcutDefinition => ({
  id: 'shortcut.on_device',
  description: 'Runs on the given device.',
  params: [{ name: 'serial', type: 'string', description: 'The device.' }],
  preconditions: [{ key, equals: true, hint: 'Plug that phone in.' }],
  steps: [{ tool: 'echo_text', args: { text: 'on it' } }],
});

describe('precondition keys', () => {
  it('are the keys the host has, listed in shortcut_define’s schema', () => {
    const kit = makeKit({ preconditionKeys: PRECONDITION_KEYS });
    const schema = JSON.stringify(kit.registry.get('shortcut_define')?.inputSchema);
    for (const key of [
      'device.<serial>.online',
      'device.<serial>.foregroundPackage',
      'browser.dialogOpen',
      'browser.pageOpen',
      'browser.loading',
    ])
      expect(schema).toContain(key);
    expect(schema).not.toContain('foreground.package');
  });

  it('refuse, at definition, a key the host does not have, naming the field and the keys there are', async () => {
    const kit = makeKit({ preconditionKeys: PRECONDITION_KEYS });
    for (const key of ['device.online', 'foreground.package']) {
      const error = errorOf(await kit.run('shortcut_define', onDevice(key)));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.data?.fields).toContain('preconditions[0].key');
      expect(error.message).toContain(`'${key}' is not a telemetry key the host has`);
      expect(error.message).toContain('device.<serial>.online');
    }
    expect(kit.registry.has('shortcut.on_device')).toBe(false);
  });

  it('accept a literal serial and a {param}, and refuse a {param} that is not declared', async () => {
    const kit = makeKit({ preconditionKeys: PRECONDITION_KEYS });
    const literal = { ...onDevice('device.192.168.1.5:5555.online'), params: [] };
    expect((await kit.run('shortcut_define', literal)).ok).toBe(true);
    expect((await kit.run('shortcut_define', onDevice('device.{serial}.online'))).ok).toBe(true);
    const error = errorOf(await kit.run('shortcut_define', { ...onDevice('device.{phone}.online') }));
    expect(error.message).toContain('{phone} is not a declared parameter');
  });
});

describe('a precondition with a {param}', () => {
  it('checks the device the call names, and lets an unknown one through', async () => {
    const readings: Record<string, unknown> = { 'device.A.online': false, 'device.B.online': true };
    const kit = makeKit({ preconditionKeys: PRECONDITION_KEYS, telemetry: (key) => readings[key] });
    expect((await kit.run('shortcut_define', onDevice('device.{serial}.online'))).ok).toBe(true);
    const refused = errorOf(await kit.run('shortcut.on_device', { serial: 'A' }));
    expect(refused.message).toContain('needs device.A.online = true, but it is false; no step was run.');
    expect(refused.hint).toBe('Plug that phone in.');
    expect(kit.calls).toHaveLength(0);
    expect((await kit.run('shortcut.on_device', { serial: 'B' })).ok).toBe(true);
    expect((await kit.run('shortcut.on_device', { serial: 'unknown-phone' })).ok).toBe(true);
    expect(kit.calls).toHaveLength(2);
  });
});
