/** Shared input pieces and the text form of memories for the memory tools. */
import { z } from 'zod';
import { MEMORY_ROLES, type Memory, type RecalledMemory } from './memory-store';

export const tagInput = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .transform((t) => t.toLowerCase().replace(/\s+/g, '-'))
  .describe('A tag, e.g. "preferences" or "project-x" (case-insensitive; spaces become dashes).');

export const keyInput = z.string().trim().min(1).max(200);

export const roleInput = z
  .enum(MEMORY_ROLES)
  .describe('What the memory is about: an app, a device, a screen, a person, or a fact.');

/** Per memory in a recall listing; longer texts are cut so ten results stay readable. */
const MAX_SHOWN_CHARS = 2000;

export function memoryLine(m: Memory | RecalledMemory): string {
  const key = m.key ? ` key=${JSON.stringify(m.key)}` : '';
  const tags = m.tags.length > 0 ? ` tags=[${m.tags.join(', ')}]` : '';
  const text =
    m.text.length > MAX_SHOWN_CHARS
      ? `${m.text.slice(0, MAX_SHOWN_CHARS)}… [${m.text.length - MAX_SHOWN_CHARS} more characters]`
      : m.text;
  return `#${m.id}${key}${tags} (${new Date(m.updatedAt).toISOString()})\n${text}`;
}

export function memoryJson(m: Memory | RecalledMemory) {
  return {
    id: m.id,
    key: m.key,
    text: m.text,
    tags: m.tags,
    ...(m.role ? { role: m.role } : {}),
    ...(m.aliases.length > 0 ? { aliases: m.aliases } : {}),
    createdAt: new Date(m.createdAt).toISOString(),
    updatedAt: new Date(m.updatedAt).toISOString(),
    ...('score' in m && m.score !== undefined ? { score: Number(m.score.toFixed(4)) } : {}),
  };
}
