/**
 * The bounds every skill is checked against before anything lands on disk. An archive or folder
 * past one is refused whole, with the limit named, so a model can tell the user what to trim.
 */
export const SKILL_LIMITS = {
  /** An archive file or download, as it arrives (compressed). */
  archiveBytes: 20 * 1024 * 1024,
  /** Files and folders in one skill. */
  entries: 500,
  /** One file, uncompressed. */
  fileBytes: 5 * 1024 * 1024,
  /** All files together, uncompressed: a zip bomb stops here. */
  totalBytes: 50 * 1024 * 1024,
  /** SKILL.md itself: instructions a model reads, not a data file. */
  skillMdBytes: 256 * 1024,
  /** A path inside the skill, in characters, and its depth in folders. */
  pathChars: 240,
  pathDepth: 12,
  /** Tools one skill may declare. */
  tools: 16,
} as const;

export const SKILL_MD = 'SKILL.md';
