/**
 * adb's shell protocol v2, the host side: every packet is one id byte, a u32 LE length and the
 * payload. Ids: stdin 0, stdout 1, stderr 2, exit 3 (one status byte), close-stdin 4, window size
 * change 5 (text "ROWSxCOLS,XPIXELSxYPIXELS").
 */

export const V2 = { stdin: 0, stdout: 1, stderr: 2, exit: 3, closeStdin: 4, windowSize: 5 } as const;

export function v2Packet(id: number, payload: Buffer | string): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  const header = Buffer.alloc(5);
  header.writeUInt8(id, 0);
  header.writeUInt32LE(body.length, 1);
  return Buffer.concat([header, body]);
}

export function windowSizePacket(cols: number, rows: number): Buffer {
  return v2Packet(V2.windowSize, `${rows}x${cols},0x0`);
}

/** Splits a byte stream into v2 packets, whatever way it was cut. */
export class V2Reader {
  private buffer: Buffer = Buffer.alloc(0);

  constructor(private readonly onPacket: (id: number, payload: Buffer) => void) {}

  push(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    while (this.buffer.length >= 5) {
      const length = this.buffer.readUInt32LE(1);
      if (this.buffer.length < 5 + length) return;
      const id = this.buffer.readUInt8(0);
      const payload = this.buffer.subarray(5, 5 + length);
      this.buffer = this.buffer.subarray(5 + length);
      this.onPacket(id, payload);
    }
  }
}
