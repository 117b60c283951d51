/** browser_file_upload: attach workspace files to a file input (or the file chooser a button opens). */
import { stat } from 'node:fs/promises';
import { z } from 'zod';
import type { SelfGuard } from '../../common/self-guard';
import { ToolCallError, success } from '../../core/result';
import { resolveInsideRoot } from '../../files/path-guard';
import { type BrowserToolDeps, definePageTool } from '../define-browser-tool';
import { controlKind } from '../page-scripts';
import { describeRef, resolveRefTarget } from '../snapshot/refs';
import { refField } from './common';

const input = z.object({
  ref: refField.describe('The file input, or its button.'),
  paths: z.array(z.string().min(1)).max(20).describe('Workspace files; [] clears.'),
});

async function workspaceFiles(root: string, paths: string[], self: SelfGuard): Promise<string[]> {
  const out: string[] = [];
  for (const p of paths) {
    const abs = await resolveInsideRoot(root, p);
    // A workspace root set to a folder that holds the data dir must not let the token be sent to a page.
    if (self.ownsPath(abs)) throw self.fileRefusal();
    const info = await stat(abs).catch(() => null);
    if (!info)
      throw new ToolCallError('NOT_FOUND', `File "${p}" does not exist in the workspace.`, {
        hint: 'List the workspace files and pass an existing path relative to its root.',
        data: { fields: ['paths'], path: p },
      });
    if (!info.isFile())
      throw new ToolCallError('INVALID_ARGUMENT', `"${p}" is a directory, not a file.`, {
        data: { fields: ['paths'], path: p },
      });
    out.push(abs);
  }
  return out;
}

export function browserFileUpload(deps: BrowserToolDeps) {
  return definePageTool(deps, {
    id: 'browser_file_upload',
    title: 'Upload files',
    description: 'Attaches workspace files to a file input; the form is not submitted.',
    input,
    metadata: { category: 'browser', risk: 'MEDIUM', tags: ['browser', 'web', 'files'] },
    annotations: {
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: true,
      sensitiveAction: true,
    },
    runPolicy: 'mutating',
    target: (args) => args.ref,
    async run({ args, page, deps: d }) {
      const files = await workspaceFiles(d.workspaceRoot, args.paths, d.manager.loadRules.self);
      const { ref, target } = await resolveRefTarget(page, args.ref);
      const timeout = d.manager.actionTimeoutMs;
      const kind = await target.evaluate(controlKind, undefined, { timeout });
      if (kind.tag === 'input' && kind.type === 'file') {
        if (files.length > 1 && !kind.multiple)
          throw new ToolCallError(
            'INVALID_ARGUMENT',
            `${describeRef(page, ref)} accepts one file; got ${files.length}.`,
            { data: { fields: ['paths'] } },
          );
        await target.setInputFiles(files, { timeout });
      } else {
        const chooser = page.waitForEvent('filechooser', { timeout });
        chooser.catch(() => undefined);
        await target.click({ timeout });
        const opened = await chooser.catch(() => {
          throw new ToolCallError(
            'INVALID_ARGUMENT',
            `Clicking ${describeRef(page, ref)} did not open a file chooser, and it is not a file input.`,
            {
              hint: 'Take a browser_snapshot and pick the file input or the button labelled for uploading.',
              data: { fields: ['ref'] },
            },
          );
        });
        await opened.setFiles(files, { timeout });
      }
      const names = args.paths.map((p) => JSON.stringify(p)).join(', ');
      return success(
        files.length === 0
          ? `Cleared the files of ${describeRef(page, ref)}.`
          : `Attached ${names} to ${describeRef(page, ref)}.`,
      );
    },
  });
}
