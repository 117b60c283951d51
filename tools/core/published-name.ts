/**
 * The name a tool is published under to MCP clients. Claude Desktop and claude.ai check every tool
 * name against `^[a-zA-Z0-9_-]{1,64}$` and withhold a server's whole tool list when one name fails,
 * yet the seed's ids are dotted (`shortcut.open_wifi`, `mcp.<server>.<tool>`,
 * `terminal.ubuntu.ensure`). So every id is published in that alphabet: other characters become
 * `_`, and a name longer than 64 characters keeps its start and ends in a stable hash of the full
 * id, so it never changes between runs. Calls by the seed id keep working (the registry answers
 * both), and traces always record the seed id.
 */
import { createHash } from 'node:crypto';

export const PUBLISHED_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX = 64;

export function publishedName(id: string): string {
  if (PUBLISHED_NAME_PATTERN.test(id)) return id;
  const plain = id.replace(/[^a-zA-Z0-9_-]/g, '_') || '_';
  if (plain.length <= MAX) return plain;
  const suffix = `_${createHash('sha256').update(id).digest('hex').slice(0, 8)}`;
  return plain.slice(0, MAX - suffix.length) + suffix;
}
