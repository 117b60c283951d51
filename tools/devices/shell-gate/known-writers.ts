/**
 * Commands that write files or change the device, with what they do, so the person asked and the
 * model read why; any other command that is not on the read-only allow-list is "not known to be
 * read-only". Both ask.
 */
import { type Judgement, ask, tok } from './judgement';

/** Commands that write or change the device, with what they do (anything else unknown is only "not known"). */
const WRITERS: Record<string, string> = {
  cp: 'copies files (writes the destination)',
  mv: 'moves or renames files',
  ln: 'creates links',
  link: 'creates a link',
  unlink: 'deletes a file',
  rmdir: 'removes directories',
  mkdir: 'creates directories',
  touch: 'creates files or changes their times',
  truncate: 'changes the size of files',
  tee: 'writes its input to files',
  install: 'copies files into place',
  mkfifo: 'creates special files',
  mknod: 'creates special files',
  mktemp: 'creates a temporary file',
  patch: 'edits files',
  split: 'writes files',
  tar: 'writes files or archives',
  cpio: 'writes files or archives',
  unzip: 'extracts files',
  gzip: 'writes compressed files',
  gunzip: 'writes uncompressed files',
  bzip2: 'writes compressed files',
  bunzip2: 'writes uncompressed files',
  xz: 'writes compressed files',
  zip: 'writes archives',
  dos2unix: 'rewrites files in place',
  unix2dos: 'rewrites files in place',
  shred: 'overwrites files',
  fallocate: 'allocates file space',
  chattr: 'changes file attributes',
  setfattr: 'changes file attributes',
  chcon: 'changes SELinux labels',
  restorecon: 'changes SELinux labels',
  uudecode: 'writes a decoded file',
  uiautomator: 'writes a UI dump file or runs tests',
  sendevent: 'injects input events',
  monkey: 'drives apps with random events',
  ime: 'changes the input method',
  locksettings: 'changes the lock screen',
  renice: 'changes process priorities',
  log: 'writes to the system log',
  sqlite3: 'opens databases (and may write them)',
  wget: 'downloads files',
  curl: 'sends requests and may write files',
  nc: 'opens network connections',
  netcat: 'opens network connections',
  alias: 'changes how later commands are read',
  set: 'changes shell options or parameters',
  export: 'exports variables to the commands that follow',
  typeset: 'sets variables',
  readonly: 'sets variables',
  unset: 'unsets variables',
  read: 'sets variables from its input',
  trap: 'sets commands to run on signals',
  ulimit: 'changes resource limits',
  umask: 'changes the file creation mask',
};

export function unknownOrWriter(name: string): Judgement {
  const what = WRITERS[name];
  return ask(what ? `${tok(name)}: ${what}` : `${name.length > 48 ? tok(name) : name} is not known to be read-only`);
}
