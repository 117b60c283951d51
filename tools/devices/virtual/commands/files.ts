/** File and text commands over the phone's file system: cat, ls, rm, mkdir, touch, md5sum, grep, head, tail, wc. */
import { createHash } from 'node:crypto';
import { modeOf, type FsEntry } from '../phone/filesystem';
import { readAll } from '../sh/io';
import { strftime } from './basic';
import { parseFlags, type CommandContext, type CommandTable } from './types';

function permString(entry: FsEntry): string {
  const bits = modeOf(entry) & 0o777;
  const rwx = (n: number): string => `${n & 4 ? 'r' : '-'}${n & 2 ? 'w' : '-'}${n & 1 ? 'x' : '-'}`;
  return `${entry.kind === 'dir' ? 'd' : '-'}${rwx(bits >> 6)}${rwx(bits >> 3)}${rwx(bits)}`;
}

function longLine(entry: FsEntry, name: string): string {
  const owner = 'root';
  const group = 'sdcard_rw';
  const size = entry.kind === 'dir' ? 4096 : entry.data.length;
  return (
    `${permString(entry)} ` +
    `1 ${owner} ${group} ${String(size).padStart(8)} ${strftime('%Y-%m-%d %H:%M', entry.mtime * 1000)} ${name}\n`
  );
}

/** Lines of the operand files, or of stdin when there are none. Missing files are reported. */
async function inputText(
  ctx: CommandContext,
  files: string[],
  name: string,
): Promise<{ text: string; status: number }> {
  if (files.length === 0) return { text: (await readAll(ctx.stdin)).toString('utf8'), status: 0 };
  let text = '';
  let status = 0;
  for (const file of files) {
    const data = ctx.phone.fs.read(file);
    if (typeof data === 'string') {
      ctx.err(`${name}: ${file}: ${data}\n`);
      status = 1;
    } else {
      text += data.toString('utf8');
    }
  }
  return { text, status };
}

function lines(text: string): string[] {
  const all = text.split('\n');
  if (all[all.length - 1] === '') all.pop();
  return all;
}

function countFlag(ctx: CommandContext, fallback: number): { n: number; files: string[] } {
  const { flags, operands } = parseFlags(ctx.argv.slice(1), ['-n']);
  const legacy = ctx.argv.slice(1).find((a) => /^-\d+$/.test(a));
  return {
    n: Number(flags.get('-n') ?? legacy?.slice(1) ?? fallback),
    files: operands.filter((o) => !/^-\d+$/.test(o)),
  };
}

export const fileCommands: CommandTable = {
  async cat(ctx) {
    const files = ctx.argv.slice(1).filter((a) => a !== '-');
    if (files.length === 0) {
      ctx.stdout.write(await readAll(ctx.stdin));
      return 0;
    }
    let status = 0;
    for (const file of files) {
      const data = ctx.phone.fs.read(file);
      if (typeof data === 'string') {
        ctx.err(`cat: ${file}: ${data}\n`);
        status = 1;
      } else {
        ctx.stdout.write(data);
      }
    }
    return status;
  },
  ls(ctx) {
    const { flags, operands } = parseFlags(ctx.argv.slice(1));
    const long = flags.has('-l');
    const all = flags.has('-a');
    let status = 0;
    const targets = operands.length > 0 ? operands : ['/'];
    for (const target of targets) {
      const entry = ctx.phone.fs.stat(target);
      if (!entry) {
        ctx.err(`ls: ${target}: No such file or directory\n`);
        status = 1;
        continue;
      }
      if (targets.length > 1 && entry.kind === 'dir') ctx.out(`${target}:\n`);
      const listing = entry.kind === 'dir' && !flags.has('-d') ? ctx.phone.fs.list(target) : [{ name: target, entry }];
      if (typeof listing === 'string') continue;
      if (all && entry.kind === 'dir') ctx.out(long ? longLine(entry, '.') + longLine(entry, '..') : '.\n..\n');
      for (const item of listing) ctx.out(long ? longLine(item.entry, item.name) : `${item.name}\n`);
    }
    return status;
  },
  rm(ctx) {
    const { flags, operands } = parseFlags(ctx.argv.slice(1));
    let status = 0;
    for (const path of operands) {
      const error = ctx.phone.fs.remove(path, flags.has('-r') || flags.has('-R'));
      if (error && !(flags.has('-f') && error === 'No such file or directory')) {
        ctx.err(`rm: ${path}: ${error}\n`);
        status = 1;
      }
    }
    return status;
  },
  mkdir(ctx) {
    const { flags, operands } = parseFlags(ctx.argv.slice(1));
    let status = 0;
    for (const path of operands) {
      const error = ctx.phone.fs.mkdir(path, flags.has('-p'));
      if (error) {
        ctx.err(`mkdir: ${path}: ${error}\n`);
        status = 1;
      }
    }
    return status;
  },
  touch(ctx) {
    let status = 0;
    for (const path of ctx.argv.slice(1).filter((a) => !a.startsWith('-'))) {
      const error = ctx.phone.fs.write(path, Buffer.alloc(0), { append: true });
      if (error) {
        ctx.err(`touch: ${path}: ${error}\n`);
        status = 1;
      }
    }
    return status;
  },
  md5sum(ctx) {
    let status = 0;
    for (const path of ctx.argv.slice(1)) {
      const data = ctx.phone.fs.read(path);
      if (typeof data === 'string') {
        ctx.err(`md5sum: ${path}: ${data}\n`);
        status = 1;
      } else {
        ctx.out(`${createHash('md5').update(data).digest('hex')}  ${path}\n`);
      }
    }
    return status;
  },
  async grep(ctx) {
    const { flags, operands } = parseFlags(ctx.argv.slice(1), ['-e']);
    const pattern = flags.get('-e') ?? operands.shift();
    if (pattern === undefined) {
      ctx.err('grep: no pattern\n');
      return 2;
    }
    const { text, status } = await inputText(ctx, operands, 'grep');
    let regex: RegExp;
    const caseFlag = flags.has('-i') ? 'i' : '';
    try {
      regex = flags.has('-F')
        ? new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), caseFlag)
        : new RegExp(pattern, caseFlag);
    } catch {
      regex = new RegExp(pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), caseFlag);
    }
    const matched = lines(text).filter((line) => regex.test(line) !== flags.has('-v'));
    if (flags.has('-c')) ctx.out(`${matched.length}\n`);
    else if (!flags.has('-q')) for (const line of matched) ctx.out(`${line}\n`);
    if (status !== 0) return 2;
    return matched.length > 0 ? 0 : 1;
  },
  async head(ctx) {
    const { n, files } = countFlag(ctx, 10);
    const { text, status } = await inputText(ctx, files, 'head');
    for (const line of lines(text).slice(0, n)) ctx.out(`${line}\n`);
    return status;
  },
  async tail(ctx) {
    const { n, files } = countFlag(ctx, 10);
    const { text, status } = await inputText(ctx, files, 'tail');
    for (const line of n > 0 ? lines(text).slice(-n) : []) ctx.out(`${line}\n`);
    return status;
  },
  async wc(ctx) {
    const { flags, operands } = parseFlags(ctx.argv.slice(1));
    const { text, status } = await inputText(ctx, operands, 'wc');
    const counts = {
      '-l': lines(text).length,
      '-w': text.split(/\s+/).filter(Boolean).length,
      '-c': Buffer.byteLength(text),
    };
    const chosen = (['-l', '-w', '-c'] as const).filter((f) => flags.has(f));
    ctx.out(`${(chosen.length > 0 ? chosen : (['-l', '-w', '-c'] as const)).map((f) => counts[f]).join(' ')}\n`);
    return status;
  },
};
