/**
 * The `sync:` service (adb push/pull/ls and adbkit's syncService): STAT, STA2/LST2, LIST, LIS2,
 * SEND (DATA… DONE), RECV and QUIT. Requests are 4 ASCII bytes + u32 LE length (+ that many bytes
 * of path or data) and arrive split arbitrarily across WRTEs, so they are parsed from a buffer.
 */
import { posix } from 'node:path';
import type { VirtualPhone } from '../phone';
import { modeOf, type FsEntry } from '../phone/filesystem';
import type { DeviceStream } from '../stream';
import type { ServiceHandler } from '../transport-server';

const MAX_DATA = 64 * 1024;
const ENOENT = 2;

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0, 0);
  return b;
}

function record(id: string, ...parts: Buffer[]): Buffer {
  return Buffer.concat([Buffer.from(id, 'ascii'), ...parts]);
}

function fail(message: string): Buffer {
  const text = Buffer.from(message, 'utf8');
  return record('FAIL', u32(text.length), text);
}

function sizeOf(entry: FsEntry): number {
  return entry.kind === 'dir' ? 4096 : entry.data.length;
}

/** The 68 bytes after the id of a v2 stat: error, dev, ino, mode, nlink, uid, gid, size, atime, mtime, ctime. */
function statV2(entry: FsEntry | null, inode: number): Buffer {
  const b = Buffer.alloc(68);
  if (!entry) {
    b.writeUInt32LE(ENOENT, 0);
    return b;
  }
  b.writeBigUInt64LE(1n, 4);
  b.writeBigUInt64LE(BigInt(inode), 12);
  b.writeUInt32LE(modeOf(entry), 20);
  b.writeUInt32LE(1, 24);
  b.writeUInt32LE(2000, 28);
  b.writeUInt32LE(1015, 32);
  b.writeBigUInt64LE(BigInt(sizeOf(entry)), 36);
  for (const offset of [44, 52, 60]) b.writeBigInt64LE(BigInt(entry.mtime), offset);
  return b;
}

function inodeOf(path: string): number {
  let h = 7;
  for (const ch of path) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return h;
}

class SyncSession {
  private buffer = Buffer.alloc(0);
  private upload: { path: string; perm: number; chunks: Buffer[] } | null = null;

  constructor(
    private readonly phone: VirtualPhone,
    private readonly stream: DeviceStream,
  ) {}

  receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    while (this.buffer.length >= 8) {
      const id = this.buffer.toString('ascii', 0, 4);
      const length = this.buffer.readUInt32LE(4);
      // DONE carries an mtime, not a length; everything else is followed by `length` bytes.
      const total = id === 'DONE' ? 8 : 8 + length;
      if (this.buffer.length < total) return;
      const body = Buffer.from(this.buffer.subarray(8, total));
      this.buffer = this.buffer.subarray(total);
      this.handle(id, length, body);
      if (this.stream.closed) return;
    }
  }

  private handle(id: string, arg: number, body: Buffer): void {
    const fs = this.phone.fs;
    const path = body.toString('utf8');
    switch (id) {
      case 'STAT': {
        const e = fs.stat(path);
        this.stream.write(record('STAT', u32(e ? modeOf(e) : 0), u32(e ? sizeOf(e) : 0), u32(e ? e.mtime : 0)));
        return;
      }
      case 'STA2':
      case 'LST2':
        this.stream.write(record(id, statV2(fs.stat(path), inodeOf(fs.normalize(path)))));
        return;
      case 'LIST':
      case 'LIS2':
        return this.list(path, id === 'LIS2');
      case 'RECV':
        return this.send(path);
      case 'SEND': {
        const comma = path.lastIndexOf(',');
        const target = comma >= 0 ? path.slice(0, comma) : path;
        const mode = comma >= 0 ? Number(path.slice(comma + 1)) : 0o644;
        this.upload = { path: target, perm: mode & 0o777 || 0o644, chunks: [] };
        return;
      }
      case 'DATA':
        this.upload?.chunks.push(body);
        return;
      case 'DONE':
        return this.finishUpload(arg);
      case 'QUIT':
        this.stream.end();
        return;
      default:
        this.stream.write(fail(`unknown sync request '${id}'`));
        this.stream.end();
    }
  }

  private list(path: string, v2: boolean): void {
    const fs = this.phone.fs;
    const dir = fs.stat(path);
    const items = dir?.kind === 'dir' ? fs.list(path) : [];
    const entries =
      dir && typeof items !== 'string' ? [{ name: '.', entry: dir }, { name: '..', entry: dir }, ...items] : [];
    for (const { name, entry } of entries) {
      const nameBytes = Buffer.from(name, 'utf8');
      if (v2) {
        this.stream.write(
          record('DNT2', statV2(entry, inodeOf(`${fs.normalize(path)}/${name}`)), u32(nameBytes.length), nameBytes),
        );
      } else {
        this.stream.write(
          record('DENT', u32(modeOf(entry)), u32(sizeOf(entry)), u32(entry.mtime), u32(nameBytes.length), nameBytes),
        );
      }
    }
    this.stream.write(record('DONE', Buffer.alloc(v2 ? 72 : 16)));
  }

  private send(path: string): void {
    const data = this.phone.fs.read(path);
    if (typeof data === 'string') {
      this.stream.write(fail(data));
      return;
    }
    for (let offset = 0; offset < data.length; offset += MAX_DATA) {
      const chunk = data.subarray(offset, offset + MAX_DATA);
      this.stream.write(record('DATA', u32(chunk.length), chunk));
    }
    this.stream.write(record('DONE', u32(0)));
  }

  private finishUpload(mtime: number): void {
    const upload = this.upload;
    this.upload = null;
    if (!upload) {
      this.stream.write(fail('DONE without SEND'));
      return;
    }
    const fs = this.phone.fs;
    // Like adbd with fixed_push_mkdir: missing parent directories are created.
    fs.mkdir(posix.dirname(fs.normalize(upload.path)), true);
    const error = fs.write(upload.path, Buffer.concat(upload.chunks), { perm: upload.perm, mtime });
    this.stream.write(error ? fail(`couldn't create file: ${error}`) : record('OKAY', u32(0)));
  }
}

export function syncService(phone: VirtualPhone): ServiceHandler {
  return (stream) => {
    const session = new SyncSession(phone, stream);
    stream.onData((chunk) => session.receive(chunk));
  };
}
