/**
 * Archives written byte by byte, so a test can make exactly the entry an attacker would: a name
 * with "..", an absolute path, a symbolic link, a device, a size that lies. Real zip (stored or
 * deflated, with Unix modes in the external attributes) and real ustar, readable by any tool.
 */
import { randomBytes } from 'node:crypto';
import { crc32, deflateRawSync, gzipSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  data?: Buffer | string;
  /** Unix mode, e.g. 0o100644 (file), 0o120777 (symbolic link), 0o040755 (folder). */
  mode?: number;
  deflate?: boolean;
  encrypted?: boolean;
  /** Claimed uncompressed size, when it should lie. */
  declaredSize?: number;
}

export function zip(entries: readonly ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const raw = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data ?? '');
    const packed = e.deflate ? deflateRawSync(raw) : raw;
    // Traditional PKWARE encryption puts a 12-byte header before the data.
    const body = e.encrypted ? Buffer.concat([randomBytes(12), packed]) : packed;
    const name = Buffer.from(e.name);
    const flags = 0x800 | (e.encrypted ? 0x1 : 0);
    const method = e.deflate ? 8 : 0;
    const crc = crc32(raw);
    const size = e.declaredSize ?? raw.length;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(0, 10);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(flags, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(0, 12);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(((e.mode ?? (e.name.endsWith('/') ? 0o040755 : 0o100644)) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, body);
    centrals.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

export interface TarEntry {
  name: string;
  data?: Buffer | string;
  /** '0' file, '1' hard link, '2' symbolic link, '3' character device, '4' block device, '5' folder, '6' FIFO. */
  type?: '0' | '1' | '2' | '3' | '4' | '5' | '6';
  linkname?: string;
  /** Claimed size, when it should lie. */
  declaredSize?: number;
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

export function tar(entries: readonly TarEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const data = Buffer.isBuffer(e.data) ? e.data : Buffer.from(e.data ?? '');
    const h = Buffer.alloc(512);
    h.write(e.name, 0, 100, 'utf8');
    h.write(octal(e.type === '5' ? 0o755 : 0o644, 8), 100, 'ascii');
    h.write(octal(0, 8), 108, 'ascii');
    h.write(octal(0, 8), 116, 'ascii');
    h.write(octal(e.declaredSize ?? data.length, 12), 124, 'ascii');
    h.write(octal(0, 12), 136, 'ascii');
    h.write('        ', 148, 'ascii');
    h.write(e.type ?? '0', 156, 'ascii');
    if (e.linkname) h.write(e.linkname, 157, 100, 'utf8');
    h.write('ustar\0', 257, 'ascii');
    h.write('00', 263, 'ascii');
    let sum = 0;
    for (const byte of h) sum += byte;
    h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
    blocks.push(h, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

export const tarGz = (entries: readonly TarEntry[]) => gzipSync(tar(entries));

/** A SKILL.md with the given front matter lines and body. */
export function skillMd(frontMatter: string, body = '# Instructions\n\nDo the thing.\n'): string {
  return `---\n${frontMatter.trim()}\n---\n\n${body}`;
}

/** A minimal valid SKILL.md for `name`. */
export function minimalSkill(name: string, extra = ''): string {
  return skillMd(`name: ${name}\ndescription: A test skill named ${name}.\n${extra}`);
}
