/**
 * A verdict on one part of a command line and the sentence that explains it. The sentence goes to
 * the model and to the person asked, so it names only the offending token (an option, an operator,
 * a path, a command name), shortened, never the rest of the line.
 */

export type Verdict = 'read' | 'ask' | 'deny';

export interface Judgement {
  verdict: Verdict;
  reason: string;
}

const RANK: Record<Verdict, number> = { read: 0, ask: 1, deny: 2 };

export function worst(a: Verdict, b: Verdict): Verdict {
  return RANK[a] >= RANK[b] ? a : b;
}

/** A token of the line, quoted for a message and cut to a readable length. */
export function tok(text: string): string {
  const flat = text.replace(/[\n\r\t]/g, ' ');
  const short = flat.length > 48 ? `${flat.slice(0, 47)}…` : flat;
  return short.includes('`') ? `\`\` ${short} \`\`` : `\`${short}\``;
}

export const read = (reason: string): Judgement => ({ verdict: 'read', reason });
export const ask = (reason: string): Judgement => ({ verdict: 'ask', reason });
export const deny = (reason: string): Judgement => ({ verdict: 'deny', reason });
