/**
 * The folders a terminal may start in: the file tools' workspace and the folders the person listed
 * in the setting terminalWorkspaces. A terminal may start in one of them or a folder inside one;
 * links are resolved first, so a link cannot lead a sandbox to mount something else. A folder that
 * holds Toolgate's data dir is never accepted: the sandbox would see the data dir through it.
 */
import { existsSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { ToolCallError } from '../core/result';

export interface WorkspaceRoots {
  /** The file tools' workspace root. */
  files: string;
  /** The setting terminalWorkspaces: absolute folders separated by the path-list separator. */
  configured(): string | undefined;
  dataDir: string;
}

export interface WorkspaceEntry {
  path: string;
  source: 'files' | 'setting';
  exists: boolean;
  /** Why it cannot be used, when it cannot. */
  problem?: string;
}

function inside(child: string, parent: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

function real(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

export function listWorkspaces(roots: WorkspaceRoots): WorkspaceEntry[] {
  const data = real(roots.dataDir) ?? resolve(roots.dataDir);
  const configured = (roots.configured() ?? '')
    .split(process.platform === 'win32' ? ';' : ':')
    .map((s) => s.trim())
    .filter(Boolean);
  const entries: WorkspaceEntry[] = [{ path: resolve(roots.files), source: 'files', exists: existsSync(roots.files) }];
  for (const p of configured) {
    const entry: WorkspaceEntry = { path: resolve(p), source: 'setting', exists: existsSync(p) };
    const r = real(p);
    if (!isAbsolute(p)) entry.problem = 'not an absolute path';
    else if (r && inside(data, r)) entry.problem = 'it holds Toolgate’s data dir';
    else if (r && inside(r, data) && !inside(r, real(roots.files) ?? resolve(roots.files)))
      entry.problem = 'it lies inside Toolgate’s data dir';
    entries.push(entry);
  }
  return entries;
}

/** The real path of the folder a terminal starts in; the file tools' workspace when none is asked for. */
export function resolveWorkspace(roots: WorkspaceRoots, wanted: string | undefined): string {
  const entries = listWorkspaces(roots).filter((e) => e.exists && !e.problem);
  const data = real(roots.dataDir) ?? resolve(roots.dataDir);
  const target =
    wanted === undefined ? resolve(roots.files) : isAbsolute(wanted) ? wanted : resolve(roots.files, wanted);
  const r = real(target);
  if (!r || !statSync(r).isDirectory())
    throw new ToolCallError('NOT_FOUND', `The folder '${wanted ?? target}' does not exist.`, {
      hint: 'terminal.workspaces lists the folders a terminal may start in.',
      data: { fields: ['workspace'] },
    });
  const allowed = entries.some((e) => {
    const root = real(e.path);
    return root !== undefined && inside(r, root);
  });
  if (!allowed || inside(data, r))
    throw new ToolCallError('PERMISSION_DENIED', `A terminal may not start in '${wanted ?? target}'.`, {
      hint:
        `Use one of the folders terminal.workspaces lists (${entries.map((e) => e.path).join(', ')}) or a ` +
        `folder inside one; the person can add folders in Settings (terminalWorkspaces).`,
      data: { fields: ['workspace'] },
    });
  return r;
}

/** Whether `file` (resolved) lies inside one of the usable folders: tarballs an agent names must. */
export function insideWorkspaces(roots: WorkspaceRoots, file: string): string | undefined {
  const r = real(isAbsolute(file) ? file : resolve(roots.files, file));
  if (!r) return undefined;
  const data = real(roots.dataDir) ?? resolve(roots.dataDir);
  const ok = listWorkspaces(roots)
    .filter((e) => e.exists && !e.problem)
    .some((e) => {
      const root = real(e.path);
      return root !== undefined && inside(r, root);
    });
  // The data dir's own workspace is inside the data dir; any other part of the data dir is not a workspace.
  if (!ok) return undefined;
  if (inside(r, data) && !inside(r, real(roots.files) ?? roots.files)) return undefined;
  return r;
}
