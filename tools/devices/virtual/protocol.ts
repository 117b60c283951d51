/**
 * ADB transport framing: a 24-byte header of six little-endian uint32 (command, arg0, arg1,
 * data_length, data_check, magic) followed by the payload. The parser buffers because TCP hands
 * us arbitrary slices: one read may hold half a header or three whole messages.
 */

export const A_CNXN = 0x4e584e43;
export const A_AUTH = 0x48545541;
export const A_OPEN = 0x4e45504f;
export const A_OKAY = 0x59414b4f;
export const A_WRTE = 0x45545257;
export const A_CLSE = 0x45534c43;
export const A_STLS = 0x534c5453;

export const AUTH_TOKEN = 1;
export const AUTH_SIGNATURE = 2;
export const AUTH_RSAPUBLICKEY = 3;

/** Protocol version with optional checksums (adb ≥ 1.0.39 never checks data_check). */
export const A_VERSION = 0x01000001;
/** The payload size this device offers; the host's offer may be smaller, and the smaller wins. */
export const DEVICE_MAX_PAYLOAD = 256 * 1024;

const HEADER_SIZE = 24;
/** Refuse absurd lengths instead of buffering forever on a corrupt stream. */
const MAX_ACCEPTED_PAYLOAD = 16 * 1024 * 1024;

export interface AdbMessage {
  command: number;
  arg0: number;
  arg1: number;
  data: Buffer;
}

const NAMES: Record<number, string> = {
  [A_CNXN]: 'CNXN',
  [A_AUTH]: 'AUTH',
  [A_OPEN]: 'OPEN',
  [A_OKAY]: 'OKAY',
  [A_WRTE]: 'WRTE',
  [A_CLSE]: 'CLSE',
  [A_STLS]: 'STLS',
};

export function commandName(command: number): string {
  return NAMES[command] ?? `0x${command.toString(16)}`;
}

function byteSum(data: Buffer): number {
  let sum = 0;
  for (const b of data) sum = (sum + b) >>> 0;
  return sum;
}

export function encodeMessage(command: number, arg0: number, arg1: number, data: Buffer = Buffer.alloc(0)): Buffer {
  const header = Buffer.alloc(HEADER_SIZE);
  header.writeUInt32LE(command >>> 0, 0);
  header.writeUInt32LE(arg0 >>> 0, 4);
  header.writeUInt32LE(arg1 >>> 0, 8);
  header.writeUInt32LE(data.length, 12);
  header.writeUInt32LE(byteSum(data), 16);
  header.writeUInt32LE((command ^ 0xffffffff) >>> 0, 20);
  return data.length > 0 ? Buffer.concat([header, data]) : header;
}

export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
}

/** Accumulates bytes and yields every complete message; keeps the remainder for the next push. */
export class MessageParser {
  private buffer: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): AdbMessage[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const messages: AdbMessage[] = [];
    while (this.buffer.length >= HEADER_SIZE) {
      const command = this.buffer.readUInt32LE(0);
      const magic = this.buffer.readUInt32LE(20);
      if ((command ^ 0xffffffff) >>> 0 !== magic)
        throw new ProtocolError(`bad magic for command 0x${command.toString(16)}`);
      const length = this.buffer.readUInt32LE(12);
      if (length > MAX_ACCEPTED_PAYLOAD) throw new ProtocolError(`payload of ${length} bytes is too large`);
      if (this.buffer.length < HEADER_SIZE + length) break;
      messages.push({
        command,
        arg0: this.buffer.readUInt32LE(4),
        arg1: this.buffer.readUInt32LE(8),
        data: Buffer.from(this.buffer.subarray(HEADER_SIZE, HEADER_SIZE + length)),
      });
      this.buffer = this.buffer.subarray(HEADER_SIZE + length);
    }
    return messages;
  }
}
