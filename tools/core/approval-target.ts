/**
 * The target of a call, for "approve this tool on this target for this session": the device a
 * device tool acts on (its `serial`), the folder of the file a file tool acts on (the folder of
 * `path`, that folder only, not the ones inside it), the host a network tool reaches (of `url`).
 * A call that names none of them (a device tool left to pick the only phone, a path that climbs
 * out with `..`) has no target, and the person is offered no target approval for it: a grant must
 * cover what it says and nothing more.
 */
import { posix } from 'node:path';
import type { ApprovalTarget } from './permission';

export function approvalTargetOf(args: unknown): ApprovalTarget | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const { serial, path, url } = args as { serial?: unknown; path?: unknown; url?: unknown };
  if (typeof serial === 'string' && serial !== '') return { kind: 'device', value: serial, label: `device ${serial}` };
  if (typeof path === 'string' && path !== '') return folderTarget(path);
  if (typeof url === 'string') return hostTarget(url);
  return undefined;
}

function folderTarget(path: string): ApprovalTarget | undefined {
  const normal = posix.normalize(path.replaceAll('\\', '/'));
  if (normal === '..' || normal.startsWith('../')) return undefined;
  const folder = posix.dirname(normal);
  const shown = folder === '.' ? 'the workspace folder' : `folder ${folder}/`;
  return { kind: 'folder', value: folder, label: shown };
}

function hostTarget(url: string): ApprovalTarget | undefined {
  if (!URL.canParse(url.trim())) return undefined;
  const parsed = new URL(url.trim());
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  return { kind: 'host', value: parsed.host, label: `host ${parsed.host}` };
}
