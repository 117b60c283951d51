/** Byte plumbing between shell commands: outputs, input sources and in-memory pipes. */

export interface Output {
  write(data: Buffer | string): void;
}

/** A byte source read chunk by chunk; `null` means end of input. */
export interface InputSource {
  read(): Promise<Buffer | null>;
}

export const discard: Output = { write() {} };

export class BufferOutput implements Output {
  private readonly chunks: Buffer[] = [];

  write(data: Buffer | string): void {
    this.chunks.push(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
  }

  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }

  text(): string {
    return this.bytes().toString('utf8');
  }
}

export class BufferSource implements InputSource {
  private done = false;

  constructor(private readonly data: Buffer = Buffer.alloc(0)) {}

  async read(): Promise<Buffer | null> {
    if (this.done || this.data.length === 0) return null;
    this.done = true;
    return this.data;
  }
}

export const emptyInput: InputSource = new BufferSource();

/** Input fed from outside (a stream's WRTE payloads); ends on `end()`. */
export class PushSource implements InputSource {
  private readonly chunks: Buffer[] = [];
  private ended = false;
  private waiter: (() => void) | null = null;

  push(data: Buffer): void {
    this.chunks.push(data);
    this.wake();
  }

  end(): void {
    this.ended = true;
    this.wake();
  }

  async read(): Promise<Buffer | null> {
    while (this.chunks.length === 0 && !this.ended) {
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
    return this.chunks.shift() ?? null;
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.();
  }
}

export async function readAll(source: InputSource): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for (let chunk = await source.read(); chunk; chunk = await source.read()) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Reads exactly `length` bytes, or fewer if the input ends first. */
export async function readExactly(source: InputSource, length: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  while (total < length) {
    const chunk = await source.read();
    if (!chunk) break;
    chunks.push(chunk);
    total += chunk.length;
  }
  return Buffer.concat(chunks).subarray(0, length);
}
