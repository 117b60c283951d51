/**
 * browser_debug_dump: everything needed to debug the page, written to one file in the workspace
 * (console, page errors, failed and error requests, recent actions, ARIA snapshot, DOM). Works while
 * a dialog blocks the page or after a crash: the parts that would hang are skipped and said so.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { success } from '../../core/result';
import { defineTool } from '../../core/tool';
import type { BrowserToolDeps } from '../define-browser-tool';
import { errorText } from '../errors';
import { DOCUMENT_HTML } from '../page-scripts';
import { captureAriaJson } from '../snapshot/aria-json';
import { renderCompact } from '../snapshot/compact-render';

const input = z.object({
  includeDom: z.boolean().default(true),
  maxDomChars: z.number().int().min(1_000).max(5_000_000).default(1_000_000),
});

/** Gives up on a page call that would hang (blocked renderer) after `ms`, with the reason in the text. */
async function within<T>(work: Promise<T>, ms: number): Promise<T | string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`(not captured: the page did not answer within ${ms} ms)`), ms);
  });
  try {
    return await Promise.race([work.catch((e: unknown) => `(not captured: ${errorText(e).split('\n')[0]})`), late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Writes `<stem>.md`, or `<stem>-2.md`… when a dump of the same instant exists: a dump never overwrites another. */
async function writeNew(stem: string, text: string): Promise<string> {
  for (let i = 1; ; i++) {
    const file = i === 1 ? `${stem}.md` : `${stem}-${i}.md`;
    try {
      await writeFile(file, text, { encoding: 'utf8', flag: 'wx' });
      return file;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || i > 1000) throw e;
    }
  }
}

const section = (title: string, body: string) => `## ${title}\n\n${body.trim() || '(none)'}\n`;

export function browserDebugDump(deps: BrowserToolDeps) {
  return defineTool({
    id: 'browser_debug_dump',
    title: 'Write a browser debug dump',
    description:
      'Writes a debug report (console, errors, failed requests, snapshot, HTML) to a workspace file under debug/.',
    input,
    metadata: { category: 'browser', risk: 'LOW', tags: ['browser', 'web', 'debug'] },
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
      sensitiveAction: false,
    },
    runPolicy: 'quickRead',
    async run(args) {
      const { manager, workspaceRoot } = deps;
      const page = manager.activePage();
      const telemetry = manager.telemetry();
      const blocked = telemetry.dialog
        ? `skipped: ${telemetry.dialog.type} dialog ${JSON.stringify(telemetry.dialog.message)} is open`
        : undefined;
      let aria = '(no page open)';
      let dom = '(no page open)';
      if (page) {
        aria =
          blocked ??
          (await within(
            captureAriaJson(page, 5_000).then((tree) => renderCompact(tree).text),
            6_000,
          ));
        if (args.includeDom) {
          const html = blocked ?? (await within(page.evaluate(DOCUMENT_HTML) as Promise<string>, 6_000));
          dom =
            html.length > args.maxDomChars
              ? `${html.slice(0, args.maxDomChars)}\n… (cut at ${args.maxDomChars} characters)`
              : html;
        }
      }
      const consoleLines = manager.console
        .consoleMessages(200)
        .map(
          (m) => `[${new Date(m.at).toISOString()}] ${m.type}: ${m.text}${m.url ? ` (${m.url}:${m.line ?? 0})` : ''}`,
        );
      const errors = manager.console
        .pageErrors(50)
        .map((e) => `[${new Date(e.at).toISOString()}] ${e.pageUrl}\n${e.stack ?? e.message}`);
      const bad = manager.network.entries({ limit: 500 }).filter((e) => e.state === 'failed' || (e.status ?? 0) >= 400);
      const requests = bad
        .slice(-100)
        .map(
          (e) =>
            `${e.method} ${e.url} ` +
            `→ ${e.state === 'failed' ? `FAILED ${e.failure ?? ''}` : e.status} [${e.resourceType}]`,
        );
      const actions = manager
        .recentActions(50)
        .map((a) => `[${new Date(a.at).toISOString()}] ${a.tool} ${a.target}${a.ok ? '' : ' (failed)'}`);
      const report = [
        `# Browser debug dump ${new Date(manager.now()).toISOString()}`,
        '',
        `URL: ${telemetry.url ?? '(none)'}  browser running: ${telemetry.started}  dialog ` +
          `open: ${telemetry.dialogOpen}`,
        '',
        section('Console', consoleLines.join('\n')),
        section('Page errors', errors.join('\n\n')),
        section('Failed and HTTP-error requests', requests.join('\n')),
        section('Recent actions', actions.join('\n')),
        section('Accessibility snapshot', aria),
        ...(args.includeDom ? [section('DOM', `\`\`\`html\n${dom}\n\`\`\``)] : []),
      ].join('\n');
      const dir = join(workspaceRoot, 'debug');
      await mkdir(dir, { recursive: true });
      const file = await writeNew(
        join(dir, `browser-dump-${new Date(manager.now()).toISOString().replace(/[:.]/g, '-')}`),
        report,
      );
      const path = relative(workspaceRoot, file).split('\\').join('/');
      const counts =
        `${consoleLines.length} console messages, ${errors.length} ` +
        `page errors, ${requests.length} failed/error requests`;
      return success(`Wrote ${path} (${counts}).`, {
        path,
        consoleMessages: consoleLines.length,
        pageErrors: errors.length,
        failedRequests: requests.length,
      });
    },
  });
}
