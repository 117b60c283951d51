/**
 * terminal.ubuntu_install, terminal.ubuntu.ensure and terminal.ubuntu.status: an Ubuntu root file
 * system (`ubuntu-<release>`) for sandbox terminals, from the source the person configured
 * (terminalUbuntuSource). ensure is idempotent: a ready one answers at once without asking anyone,
 * a half-made one is made again, a missing one is installed; installing asks the person.
 */
import { z } from 'zod';
import { success } from '../../core/result';
import { type Tool, type ToolContext, defineTool } from '../../core/tool';
import type { TerminalContext } from '../context';
import { terminalMetadata } from '../declare';
import { bootstrapRootfs } from '../sandbox/bootstrap';
import { readOsRelease } from '../sandbox/os-release';
import { UBUNTU_RELEASE, UBUNTU_SETTING, describeUbuntuSource, ubuntuPlan } from '../sandbox/ubuntu-source';
import { formatBytes } from './linux-bootstrap';

const DEFAULT_RELEASE = 'jammy';

const releaseField = z
  .string()
  .regex(UBUNTU_RELEASE, 'an Ubuntu release code name such as jammy')
  .default(DEFAULT_RELEASE)
  .describe('e.g. noble.');

const nameOf = (release: string) => `ubuntu-${release}`;

async function install(ctx: TerminalContext, tool: Tool, call: ToolContext, release: string, repairing: boolean) {
  const plan = await ubuntuPlan(ctx.settings.ubuntuSource(), release, ctx.debootstrapScripts);
  const name = nameOf(release);
  await ctx.approvals.ask({
    tool,
    ctx: call,
    title:
      `${repairing ? 'Repair' : 'Install'} the sandbox system '${name}' from ` +
      `${plan.source.kind === 'tarball' ? plan.source.path : plan.source.mirror}`,
    args: { name, source: plan.source, repairing },
    grant: { action: `bootstrap:${name}` },
    what: `installing the Ubuntu system '${name}'`,
  });
  let steps = 0;
  return bootstrapRootfs(
    { sandbox: ctx.sandbox, debootstrap: ctx.debootstrap, cacheDir: ctx.debootstrapCache },
    { name, source: plan.source, ...(plan.keyring ? { keyring: plan.keyring } : {}) },
    { signal: call.signal, onStep: (message) => call.progress({ progress: ++steps, message }) },
  );
}

const declaration = {
  metadata: terminalMetadata('HIGH', 'sandbox', 'ubuntu'),
  selfGated: true,
  runPolicy: 'selfBounded',
} as const;

export function ubuntuInstallTool(ctx: TerminalContext): Tool {
  const source = `the source in ${UBUNTU_SETTING}`;
  const tool: Tool = defineTool({
    id: 'terminal.ubuntu_install',
    title: 'Install an Ubuntu system for the sandbox',
    description: `Installs ubuntu-<release> for sandbox terminals from ${source}; the person approves.`,
    input: z.object({ release: releaseField }),
    ...declaration,
    annotations: {
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: true,
    },
    async run(args, call) {
      const existing = ctx.sandbox.store.get(nameOf(args.release));
      if (existing?.complete)
        return success(`'${existing.name}' is already installed.`, {
          name: existing.name,
          already: true,
          sizeBytes: existing.record?.sizeBytes ?? 0,
        });
      const report = await install(ctx, tool, call, args.release, existing !== undefined);
      return success(`Installed '${report.record.name}' (${formatBytes(report.record.sizeBytes ?? 0)}).`, {
        name: report.record.name,
        already: false,
        sizeBytes: report.record.sizeBytes ?? 0,
      });
    },
  });
  return tool;
}

export function ubuntuEnsureTool(ctx: TerminalContext): Tool {
  const tool: Tool = defineTool({
    id: 'terminal.ubuntu.ensure',
    title: 'Make sure an Ubuntu system is ready',
    description:
      `Makes sure ubuntu-<release> is ready for sandbox terminals: a half-made one is made again, a ` +
      `missing one installed from ${UBUNTU_SETTING} (the person approves).`,
    input: z.object({ release: releaseField }),
    ...declaration,
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: true,
    },
    async run(args, call) {
      const name = nameOf(args.release);
      const existing = ctx.sandbox.store.get(name);
      if (existing?.complete)
        return success(`'${name}' is ready.`, { name, ready: true, changed: false, repaired: false });
      const repairing = existing !== undefined;
      const report = await install(ctx, tool, call, args.release, repairing);
      return success(
        `'${name}' is ready (${repairing ? 'repaired' : 'installed'}, ${formatBytes(report.record.sizeBytes ?? 0)}).`,
        {
          name,
          ready: true,
          changed: true,
          repaired: repairing,
        },
      );
    },
  });
  return tool;
}

export function ubuntuStatusTool(ctx: TerminalContext): Tool {
  return defineTool({
    id: 'terminal.ubuntu.status',
    title: 'Describe the Ubuntu systems',
    description: `Lists the sandbox's Ubuntu systems (state, version, size) and the source in ${UBUNTU_SETTING}.`,
    input: z.object({}),
    metadata: terminalMetadata('LOW', 'sandbox', 'ubuntu'),
    annotations: {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: false,
    },
    runPolicy: 'quickRead',
    run() {
      const source = describeUbuntuSource(ctx.settings.ubuntuSource());
      const systems = ctx.sandbox.store
        .list()
        .filter((e) => e.name.startsWith('ubuntu-'))
        .map((e) => {
          const os = readOsRelease(e.dir);
          return {
            name: e.name,
            release: e.name.slice('ubuntu-'.length),
            state: e.complete ? 'ready' : 'half-made',
            ...(os?.pretty ? { distro: os.pretty } : {}),
            sizeBytes: e.record?.sizeBytes ?? 0,
          };
        });
      const sourceText =
        source.kind === 'none'
          ? `no Ubuntu source configured (the person can set ${UBUNTU_SETTING} in Settings)`
          : source.kind === 'invalid'
            ? `${UBUNTU_SETTING} is set but is neither a mirror URL nor an absolute path`
            : source.kind === 'mirror'
              ? `mirror ${source.url}`
              : `tarball ${source.path}`;
      const lines = systems.map(
        (s) => `${s.name}: ${s.state}${s.distro ? `, ${s.distro}` : ''}, ${formatBytes(s.sizeBytes)}`,
      );
      lines.push(`Source: ${sourceText}.`);
      return success(lines.join('\n'), { systems, source: { ...source, setting: UBUNTU_SETTING } });
    },
  });
}
