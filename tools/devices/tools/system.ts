/** The system family: device facts, settings, media transport, clipboard and the device clock (logcat is logcat.ts). */
import { z } from 'zod';
import type { ToolContext } from '../../core/tool';
import type { CommandApprover } from '../shell-gate/shell-execute';
import { type Denier, denierOf } from '../../core/permission';
import { ToolCallError, jsonSuccess, success } from '../../core/result';
import type { Tool } from '../../core/tool';
import type { DeviceService } from '../device-service';
import { sh } from '../shell-words';
import { defineDeviceTool } from './device-tool';
import { SEPARATOR, firstLines, requireSuccess, splitParts } from './arguments';

const READ = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
  sensitiveAction: false,
};

function parseProps(output: string): Map<string, string> {
  const props = new Map<string, string>();
  for (const m of output.matchAll(/^\[([^\]]+)\]: \[(.*)\]$/gm)) props.set(m[1]!, m[2]!);
  return props;
}

export function getDeviceInfoTool(service: DeviceService): Tool {
  return defineDeviceTool(service, {
    id: 'get_device_info',
    title: 'Device information',
    description: "The device's model, Android version and SDK, CPU ABI, build, screen size and density, and battery.",
    input: {},
    metadata: { category: 'system', risk: 'LOW', tags: ['device', 'system'] },
    annotations: READ,
    async run(_args, device) {
      const r = await device.run(`getprop; echo ${SEPARATOR}; wm size; wm density; echo ${SEPARATOR}; dumpsys battery`);
      const [propsText = '', wmText = '', battery = ''] = splitParts(r.output);
      const p = parseProps(propsText);
      const size = /(?:Override|Physical) size: (\d+)x(\d+)/.exec(
        wmText.includes('Override size') ? wmText.slice(wmText.indexOf('Override size')) : wmText,
      );
      const density = /(?:Override|Physical) density: (\d+)/.exec(
        wmText.includes('Override density') ? wmText.slice(wmText.indexOf('Override density')) : wmText,
      );
      const num = (re: RegExp) => {
        const m = re.exec(battery)?.[1];
        return m === undefined ? null : Number(m);
      };
      return jsonSuccess({
        serial: device.serial,
        model: p.get('ro.product.model') ?? null,
        manufacturer: p.get('ro.product.manufacturer') ?? null,
        brand: p.get('ro.product.brand') ?? null,
        device: p.get('ro.product.device') ?? null,
        androidVersion: p.get('ro.build.version.release') ?? null,
        sdk: p.has('ro.build.version.sdk') ? Number(p.get('ro.build.version.sdk')) : null,
        securityPatch: p.get('ro.build.version.security_patch') ?? null,
        abi: p.get('ro.product.cpu.abi') ?? null,
        build: p.get('ro.build.display.id') ?? p.get('ro.build.id') ?? null,
        buildType: p.get('ro.build.type') ?? null,
        screen: size
          ? { width: Number(size[1]), height: Number(size[2]), density: density ? Number(density[1]) : null }
          : null,
        battery: battery.includes('level')
          ? {
              level: num(/level: (\d+)/),
              scale: num(/scale: (\d+)/),
              usbPowered: /USB powered: true/.test(battery),
              acPowered: /AC powered: true/.test(battery),
            }
          : null,
      });
    },
  });
}

const SETTING_KEY = z
  .string()
  .regex(/^[A-Za-z0-9_.:-]{1,128}$/, 'not a settings key; keys look like "screen_brightness" or "wifi_on"')
  .describe('e.g. "screen_brightness".');

/** Settings whose change would cut the adb connection Toolgate is using. */
const CUTS_ADB = new Set(['adb_enabled', 'adb_wifi_enabled', 'development_settings_enabled']);

/**
 * Reads pass; a write (put/delete) asks a person through the same command-approval port as
 * shell_execute. The tool is self-gated so that reading a setting never waits for a click, while
 * changing one always does.
 */
export function getSetSettingsTool(service: DeviceService, approveChange?: CommandApprover): Tool {
  return defineDeviceTool(service, {
    id: 'get_set_settings',
    title: 'Read or change a system setting',
    description:
      'Reads, lists, changes or deletes Android settings (the `settings` command); a change asks the person first.',
    input: {
      action: z.enum(['get', 'put', 'delete', 'list']),
      namespace: z.enum(['system', 'secure', 'global']),
      key: SETTING_KEY.optional(),
      value: z.string().max(1000).optional(),
    },
    metadata: { category: 'system', risk: 'HIGH', tags: ['device', 'system'] },
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: true,
    },
    selfGated: true,
    async run(args, device, ctx) {
      const { action, namespace, key } = args;
      if (action === 'list') {
        const out = requireSuccess(
          await device.run(sh`settings list ${namespace}`, { maxBytes: 256 * 1024 }),
          '`settings list`',
        );
        return success(`${namespace} settings on ${device.serial}:\n${out.trimEnd()}`);
      }
      if (key === undefined)
        throw new ToolCallError('INVALID_ARGUMENT', `"key" is required for action "${action}".`, {
          data: { fields: ['key'] },
        });
      if (action === 'get') {
        const out = requireSuccess(await device.run(sh`settings get ${namespace} ${key}`), '`settings get`').trim();
        return jsonSuccess({ serial: device.serial, namespace, key, value: out === 'null' ? null : out });
      }
      if (CUTS_ADB.has(key)) {
        throw new ToolCallError(
          'PERMISSION_DENIED',
          `Changing ${namespace} ${key} would switch off adb and cut Toolgate's connection to the device.`,
          {
            hint: 'Do not change this setting from Toolgate; ask the user to do it on the phone if needed.',
          },
        );
      }
      await approveSettingChange(
        approveChange,
        ctx,
        device.serial,
        action === 'delete'
          ? `settings delete ${namespace} ${key}`
          : `settings put ${namespace} ${key} ${args.value ?? ''}`,
      );
      // A setting can change what the screen shows (font scale, dark theme): an earlier ui_dump is checked again.
      service.telemetry.invalidate(device.serial);
      if (action === 'delete') {
        const out = requireSuccess(await device.run(sh`settings delete ${namespace} ${key}`), '`settings delete`');
        return success(`Deleted ${namespace} ${key} (${out.trim() || 'done'}).`);
      }
      if (args.value === undefined)
        throw new ToolCallError('INVALID_ARGUMENT', '"value" is required for action "put".', {
          data: { fields: ['value'] },
        });
      const previous = (await device.run(sh`settings get ${namespace} ${key}`)).output.trim();
      requireSuccess(await device.run(sh`settings put ${namespace} ${key} ${args.value}`), '`settings put`');
      const now = requireSuccess(await device.run(sh`settings get ${namespace} ${key}`), '`settings get`').trim();
      return jsonSuccess({
        serial: device.serial,
        namespace,
        key,
        previous: previous === 'null' ? null : previous,
        value: now === 'null' ? null : now,
      });
    },
  });
}

async function approveSettingChange(
  approve: CommandApprover | undefined,
  ctx: ToolContext,
  serial: string,
  change: string,
): Promise<void> {
  const denied = (message: string, hint?: string) =>
    new ToolCallError('PERMISSION_DENIED', message, { ...(hint ? { hint } : {}), data: { gate: 'settings' } });
  if (!approve)
    throw denied(
      "Changing a device setting needs a person's approval and no approver is connected.",
      'Read the setting instead, or ask the user to change it.',
    );
  const decision = await approve(
    {
      callId: ctx.callId,
      sessionId: ctx.sessionId,
      toolId: 'get_set_settings',
      title: `Change a setting on ${serial}: ${change}`,
      args: { change, serial },
      risk: 'HIGH',
      annotations: {
        readOnlyHint: false,
        destructiveHint: true,
        idempotentHint: true,
        openWorldHint: true,
        sensitiveAction: true,
      },
      requester: ctx.requester,
      command: change,
      serial,
      reasons: ['changes a device setting'],
    },
    ctx.signal,
  ).catch((e: unknown) => ({
    decision: 'deny' as const,
    reason: e instanceof Error ? e.message : String(e),
    decider: 'system',
  }));
  if (decision.decision === 'deny') {
    const who = denierOf(decision.decider);
    const reason = decision.reason ? `: ${decision.reason}` : '.';
    throw new ToolCallError(
      'PERMISSION_DENIED',
      who === 'person'
        ? `The user denied the change '${change}'${reason}`
        : `Not approved: the change '${change}' was not made${reason}`,
      { data: { gate: 'settings', slug: SETTING_DENIAL_SLUG[who] } },
    );
  }
}

/**
 * The error's slug for each kind of denial, for people reading the span; who decided it is the
 * span's own `decidedBy` (shared/call-classes.ts).
 */
const SETTING_DENIAL_SLUG: Readonly<Record<Denier, string>> = {
  person: 'setting-denied',
  rule: 'setting-rule-denied',
  system: 'setting-unanswered',
};

const NO_SHELL_COMMAND = /No shell command implementation\./;

/**
 * clipboard: Android has no shell command for the clipboard — ClipboardService implements none,
 * so `cmd clipboard` gets Binder's default "No shell command implementation." with status 0 — and
 * since Android 10 only the app in front and the selected keyboard may read it. A phone that does
 * answer (a build with its own `cmd clipboard`) is used as it answers.
 */
export function clipboardTool(service: DeviceService): Tool {
  return defineDeviceTool(service, {
    id: 'clipboard',
    title: 'Device clipboard',
    description:
      'Reads or sets the device clipboard where the phone has a shell command for it; stock Android has none.',
    input: {
      action: z.enum(['get', 'set']),
      text: z.string().max(10_000).optional().describe('For set.'),
    },
    metadata: { category: 'system', risk: 'MEDIUM', tags: ['device', 'system'] },
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: true,
    },
    async run(args, device) {
      if (args.action === 'set' && args.text === undefined)
        throw new ToolCallError('INVALID_ARGUMENT', '"text" is required to set the clipboard.', {
          data: { fields: ['text'] },
        });
      const r = await device.run(
        args.action === 'get' ? 'cmd clipboard get' : sh`cmd clipboard set ${args.text ?? ''}`,
      );
      if (NO_SHELL_COMMAND.test(r.output) || /Can't find service/.test(r.output)) {
        throw new ToolCallError(
          'UNSUPPORTED',
          `${device.serial} has no shell command for the clipboard (\`cmd clipboard\` answered ` +
            `"${firstLines(r.output)}"), as stock Android has none. Since Android 10 only the app in the ` +
            "foreground and the selected keyboard may read the clipboard, so adb's shell cannot read it at all.",
          {
            hint:
              args.action === 'get'
                ? 'Read the text where it is shown instead (ui_dump), or have the app that holds it display it.'
                : 'Type the text into the field with input_text instead of pasting it.',
            data: { clipboard: 'no-shell-command' },
          },
        );
      }
      const out = requireSuccess(r, '`cmd clipboard`');
      if (args.action === 'set') return success(`Clipboard set (${[...(args.text ?? '')].length} characters).`);
      const text = out.replace(/\n$/, '');
      return success(text === '' ? '(the clipboard is empty)' : text, { serial: device.serial, text });
    },
  });
}

export function getTimeTool(service: DeviceService): Tool {
  return defineDeviceTool(service, {
    id: 'get_time',
    title: 'Device clock',
    description: "The device's current date and time, its time zone, and how far its clock is from this computer's.",
    input: {},
    metadata: { category: 'system', risk: 'LOW', tags: ['device', 'system'] },
    annotations: READ,
    async run(_args, device) {
      const asked = Date.now();
      const r = await device.run(`date +%s; date '+%Y-%m-%dT%H:%M:%S%z'; getprop persist.sys.timezone`);
      // `date +%s` is cut to the whole second, so it is compared with this computer's whole second
      // at the middle of the round trip: a phone whose clock is right reads 0, not 0 or -1 at random.
      const hostSecond = Math.floor((asked + Date.now()) / 2 / 1000);
      const [epoch, local, zone] = requireSuccess(r, '`date`')
        .split('\n')
        .map((l) => l.trim());
      const seconds = Number(epoch);
      if (!Number.isFinite(seconds))
        throw new ToolCallError('EXECUTION_FAILED', `The device printed no usable time: ${firstLines(r.output)}`);
      return jsonSuccess({
        serial: device.serial,
        epochSeconds: seconds,
        utc: new Date(seconds * 1000).toISOString(),
        local: local ?? null,
        timezone: zone || null,
        skewSeconds: seconds - hostSecond,
      });
    },
  });
}
