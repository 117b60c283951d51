/** Maps an OPEN's service name to its handler; unknown services are refused (CLSE). */
import type { VirtualPhone } from '../phone';
import type { ServiceHandler } from '../transport-server';
import { ptyShell } from '../pty-shell';
import { interactiveShell } from './interactive-shell';
import { abbExecService, shellService, v2Framing, type ShellServiceDeps } from './shell-service';
import { syncService } from './sync-service';

export function resolveService(service: string, phone: VirtualPhone, deps: ShellServiceDeps): ServiceHandler | null {
  const colon = service.indexOf(':');
  if (colon < 0) return null;
  const head = service.slice(0, colon);
  const rest = service.slice(colon + 1);
  const [name, ...options] = head.split(',');
  switch (name) {
    case 'shell':
      if (rest.trim() === '') {
        if (options.includes('v2') && options.includes('pty')) return ptyShell(deps);
        return options.includes('v2')
          ? interactiveShell(deps, v2Framing.out, v2Framing.exit, v2Framing.input, !options.includes('raw'))
          : interactiveShell(
              deps,
              (d) => d,
              null,
              (stream, onInput) => stream.onData(onInput),
              true,
            );
      }
      return shellService(deps, options.includes('v2') ? 'v2' : 'v1', rest);
    case 'exec':
      return shellService(deps, 'v1', rest);
    case 'abb_exec':
      return abbExecService(
        deps,
        rest.split('\0').filter((a, i, all) => a !== '' || i < all.length - 1),
      );
    case 'sync':
      return syncService(phone);
    case 'reboot':
      return (stream) => {
        phone.rebootRequests.push(rest);
        stream.end();
      };
    case 'root':
      return (stream) => {
        stream.write('adbd cannot run as root in production builds\n');
        stream.end();
      };
    default:
      return null;
  }
}
