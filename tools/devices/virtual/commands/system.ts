/** System configuration commands: getprop/setprop, settings, ime, svc, wm. */
import { SETTINGS_NAMESPACES, type SettingsNamespace } from '../phone/services';
import type { CommandContext, CommandTable } from './types';

function namespaceArg(ctx: CommandContext, value: string | undefined): SettingsNamespace | null {
  if (value && (SETTINGS_NAMESPACES as readonly string[]).includes(value)) return value as SettingsNamespace;
  ctx.err(`Invalid namespace '${value ?? ''}'; use system, secure or global\n`);
  return null;
}

const INPUT_METHODS = ['com.android.inputmethod.latin/.LatinIME', 'com.android.adbkeyboard/.AdbIME'];

export const systemCommands: CommandTable = {
  getprop({ argv, phone, out }) {
    const key = argv[1];
    if (key === undefined) {
      for (const [k, v] of phone.props) out(`[${k}]: [${v}]\n`);
    } else {
      out(`${phone.props.get(key) ?? argv[2] ?? ''}\n`);
    }
    return 0;
  },
  setprop(ctx) {
    const [key, value] = ctx.argv.slice(1);
    if (key === undefined || value === undefined) {
      ctx.err('setprop: need 2 arguments\n');
      return 1;
    }
    if (key.startsWith('ro.')) {
      ctx.err(`setprop: failed to set property '${key}' to '${value}'\n`);
      return 1;
    }
    ctx.phone.props.set(key, value);
    return 0;
  },
  settings(ctx) {
    const args = ctx.argv.slice(1).filter((a, i, all) => a !== '--user' && all[i - 1] !== '--user');
    const [verb, nsArg, key, ...valueParts] = args;
    const settings = ctx.phone.services.settings;
    switch (verb) {
      case 'get': {
        const ns = namespaceArg(ctx, nsArg);
        if (!ns) return 1;
        ctx.out(`${settings[ns].get(key ?? '') ?? 'null'}\n`);
        return 0;
      }
      case 'put': {
        const ns = namespaceArg(ctx, nsArg);
        if (!ns || key === undefined || valueParts.length === 0) return 1;
        settings[ns].set(key, valueParts.join(' '));
        return 0;
      }
      case 'delete': {
        const ns = namespaceArg(ctx, nsArg);
        if (!ns) return 1;
        ctx.out(`Deleted ${settings[ns].delete(key ?? '') ? 1 : 0} rows\n`);
        return 0;
      }
      case 'list': {
        const ns = namespaceArg(ctx, nsArg);
        if (!ns) return 1;
        for (const [k, v] of [...settings[ns]].sort(([a], [b]) => a.localeCompare(b))) ctx.out(`${k}=${v}\n`);
        return 0;
      }
      default:
        ctx.err('usage:  settings [--user <USER_ID>] get|put|delete|list NAMESPACE [KEY [VALUE]]\n');
        return 1;
    }
  },
  ime(ctx) {
    const [verb, id] = ctx.argv.slice(1).filter((a) => !a.startsWith('-') || a === '-s');
    const secure = ctx.phone.services.settings.secure;
    if (verb === 'list') {
      for (const m of INPUT_METHODS) ctx.out(`${m}\n`);
      return 0;
    }
    if ((verb === 'set' || verb === 'enable') && id) {
      if (!INPUT_METHODS.includes(id)) {
        ctx.err(`Unknown input method ${id} cannot be selected for user #0\n`);
        return 1;
      }
      if (verb === 'set') secure.set('default_input_method', id);
      ctx.out(`Input method ${id} ${verb === 'set' ? 'selected' : 'enabled'} for user #0\n`);
      return 0;
    }
    ctx.err('ime: use list, enable ID or set ID\n');
    return 1;
  },
  svc(ctx) {
    const [service, state] = ctx.argv.slice(1);
    const keys: Record<string, string> = { wifi: 'wifi_on', bluetooth: 'bluetooth_on', data: 'mobile_data' };
    const key = service ? keys[service] : undefined;
    if (!key || (state !== 'enable' && state !== 'disable')) {
      ctx.err('svc: use wifi|data|bluetooth enable|disable\n');
      return 1;
    }
    ctx.phone.services.settings.global.set(key, state === 'enable' ? '1' : '0');
    return 0;
  },
  wm(ctx) {
    const { width, height, density } = ctx.phone.screen;
    const sub = ctx.argv[1];
    if (sub === 'size') ctx.out(`Physical size: ${width}x${height}\n`);
    else if (sub === 'density') ctx.out(`Physical density: ${density}\n`);
    else {
      ctx.err('wm: use size or density\n');
      return 1;
    }
    return 0;
  },
};
