/**
 * Turns what a person or model typed into a safe FTS5 MATCH expression. Every whitespace-separated
 * word becomes a quoted string (inner quotes doubled), so FTS syntax in the input — `"`, `*`,
 * `-`, `NEAR`, `AND`, `:`, parentheses — is matched as text, never parsed as an operator. Words
 * are OR-ed: bm25 ranks memories matching more of them first, and a stray word does not empty
 * the result the way an implicit AND would.
 */

/** undefined when the input has no searchable word (only punctuation or spaces). */
export function toFtsQuery(input: string): string | undefined {
  // Control characters (NUL above all) end an FTS5 string early in SQLite's C parser.
  const words = input
    .replace(/\p{Cc}/gu, ' ')
    .split(/\s+/)
    .filter((w) => /[\p{L}\p{N}]/u.test(w))
    .slice(0, 64);
  if (words.length === 0) return undefined;
  return words.map((w) => `"${w.replace(/"/g, '""')}"`).join(' OR ');
}
