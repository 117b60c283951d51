/**
 * terminal.linux_status: the sandbox's root file systems (finished or half-made, distribution, size,
 * packages) and its network.
 */
import { z } from 'zod';
import { success } from '../../core/result';
import { type Tool, defineTool } from '../../core/tool';
import type { TerminalContext } from '../context';
import { terminalMetadata } from '../declare';
import { dirSize } from '../sandbox/dir-size';
import { readOsRelease } from '../sandbox/os-release';
import { installedPackages } from '../sandbox/package-index';
import { formatBytes } from './linux-bootstrap';

export function linuxStatusTool(ctx: TerminalContext): Tool {
  return defineTool({
    id: 'terminal.linux_status',
    title: 'Describe the sandbox’s Linux system',
    description:
      "Lists the sandbox's root file systems (ready or half-made, distribution, size, " +
      'packages), its confinement and network.',
    input: z.object({}),
    metadata: terminalMetadata('LOW', 'sandbox'),
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: false,
    },
    runPolicy: 'quickRead',
    async run(_args, call) {
      const runner = ctx.sandbox.runner();
      const def = ctx.sandbox.store.defaultName();
      const systems = [];
      for (const e of ctx.sandbox.store.list()) {
        const os = readOsRelease(e.dir);
        const size =
          e.complete && e.record?.sizeBytes !== undefined
            ? { bytes: e.record.sizeBytes }
            : await dirSize(e.dir, call.signal);
        systems.push({
          name: e.name,
          state: e.complete ? 'ready' : 'half-made',
          default: e.name === def,
          distro: os?.pretty ?? os?.name ?? 'unknown',
          ...(os?.id ? { id: os.id } : {}),
          ...(os?.version ? { version: os.version } : {}),
          ...(os?.codename ? { codename: os.codename } : {}),
          sizeBytes: size.bytes,
          packages: installedPackages(e.dir).length,
          ...(e.record ? { source: e.record.source } : {}),
        });
      }
      const network = runner.kind === 'proot' ? 'not isolated (PRoot)' : ctx.sandbox.network ? 'on' : 'off';
      const lines = systems.length
        ? systems.map(
            (s) =>
              `${s.name}${s.default ? ' (default)' : ''}: ${s.state}, ${s.distro}, ${formatBytes(s.sizeBytes)}, ` +
              `${s.packages} packages`,
          )
        : ['No Linux root file system yet: create one with terminal.linux_bootstrap.'];
      lines.push(`Confinement: ${runner.kind} — ${runner.why}. Network: ${network}.`);
      return success(lines.join('\n'), {
        present: systems.some((s) => s.state === 'ready'),
        systems,
        runner: runner.kind,
        runnerWhy: runner.why,
        network,
      });
    },
  });
}
