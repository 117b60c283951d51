/** System configuration commands: getprop/setprop, settings, ime, svc, wm. */
import { SETTINGS_NAMESPACES, type SettingsNamespace } from '../phone/services';
import type { CommandContext, CommandTable } from './types';

function namespaceArg(ctx: CommandContext, value: string | undefined): SettingsNamespace | null {
  if (value && (SETTINGS_NAMESPACES as readonly string[]).includes(value)) return value as SettingsNamespace;
  ctx.err(`Invalid namespace '${value ?? ''}'; use system, secure or global\n`);
  return null;
}

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
  /**
   * `ime list [-a] [-s]`, `ime enable|disable|set ID` as InputMethodManagerService's shell command
   * answers (Android 11+ adds " for user #0"; older builds end the sentence at the id). `set` only
   * selects an enabled input method.
   */
  ime(ctx) {
    const args = ctx.argv.slice(1);
    const [verb, id] = args.filter((a) => !a.startsWith('-'));
    const secure = ctx.phone.services.settings.secure;
    const installed = ctx.phone.inputMethods();
    const enabled = (secure.get('enabled_input_methods') ?? '').split(':').filter(Boolean);
    const user = ctx.phone.profile.sdk >= 30 ? ' for user #0' : '';
    if (verb === 'list') {
      for (const m of args.includes('-a') ? installed : enabled.filter((e) => installed.includes(e))) ctx.out(`${m}\n`);
      return 0;
    }
    if ((verb === 'enable' || verb === 'disable') && id) {
      if (!installed.includes(id)) {
        ctx.err(`Unknown input method ${id} cannot be ${verb}d${user}\n`);
        return 255;
      }
      const on = verb === 'enable';
      const already = enabled.includes(id) === on;
      const next = on ? [...new Set([...enabled, id])] : enabled.filter((e) => e !== id);
      secure.set('enabled_input_methods', next.join(':'));
      if (!on && secure.get('default_input_method') === id) secure.set('default_input_method', next[0] ?? '');
      ctx.out(`Input method ${id}: ${already ? 'already' : 'now'} ${verb}d${user}\n`);
      return 0;
    }
    if (verb === 'set' && id) {
      if (!installed.includes(id) || !enabled.includes(id)) {
        ctx.err(`Unknown input method ${id} cannot be selected${user}\n`);
        return 255;
      }
      secure.set('default_input_method', id);
      ctx.out(`Input method ${id} selected${user}\n`);
      return 0;
    }
    ctx.err('ime: use list, enable ID, disable ID or set ID\n');
    return 255;
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
  /** `wm size [-d N]`, `wm density [-d N]`: the logical display 0 is the built-in display that is on. */
  wm(ctx) {
    const args = ctx.argv.slice(1);
    const d = args.indexOf('-d');
    const displayId = d >= 0 ? Number(args[d + 1]) : 0;
    const sub = args.find((a, i) => !a.startsWith('-') && args[i - 1] !== '-d');
    const display = displayId === 0 ? ctx.phone.display : undefined;
    if (sub !== 'size' && sub !== 'density') {
      ctx.err('wm: use size or density\n');
      return 255;
    }
    if (!display) {
      ctx.err(`Error: Unable to get display ${args[d + 1] ?? ''}\n`);
      return 255;
    }
    if (sub === 'size') ctx.out(`Physical size: ${display.width}x${display.height}\n`);
    else ctx.out(`Physical density: ${display.density}\n`);
    return 0;
  },
};
