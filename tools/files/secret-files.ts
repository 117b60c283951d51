/**
 * The host's own secrets, as the files family sees them: a predicate the host passes in (the
 * family knows nothing of where the host keeps its token or database). Objects are named by their
 * identity, the (device, inode) pair the kernel compares, so no spelling, link or race that leads
 * to a secret makes it a different file.
 */

/** What the kernel compares to tell two names of one file apart from two files. */
export interface FileId {
  dev: number;
  ino: number;
}

export const sameFile = (a: FileId, b: FileId): boolean => a.dev === b.dev && a.ino === b.ino;

/** An object a tool is about to read, change, copy, move or delete. */
export interface SecretQuery {
  /** The directory that holds it. */
  parent: FileId;
  /** Its name in that directory. */
  name: string;
  /** Its own identity; absent when it does not exist yet (a file about to be created). */
  id?: FileId;
}

/**
 * True when the object is one of the host's secret files, or a directory that holds them (acting
 * on such a directory as a whole would read, move or delete them with it).
 */
export type SecretFiles = (target: SecretQuery) => boolean;
