/**
 * One ADB stream on the device side (OPEN → OKAY … CLSE). Writes are split to the negotiated
 * payload size and sent one WRTE at a time: the next WRTE waits for the peer's OKAY, as adbd does.
 * What a command writes while a WRTE waits for its OKAY goes out together in the next one, up to
 * the payload size: adbd reads the command's pipe once per packet, and a read returns everything
 * written since the last (AOSP packages/modules/adb daemon/shell_service.cpp, Subprocess's
 * PassOutput: one read() of up to the payload size, one packet). A command that prints a line at a
 * time therefore costs a packet per OKAY, not per line.
 * `end()` sends CLSE only after every queued byte has gone out.
 */
import { A_CLSE, A_OKAY, A_WRTE } from './protocol';

export type SendMessage = (command: number, arg0: number, arg1: number, data?: Buffer) => void;

/** What a service sees of its stream. */
export interface ServiceStream {
  write(data: Buffer | string): void;
  /** Flushes queued data, then closes the stream. */
  end(): void;
  /** The stream was closed by the peer or by this side, or the link dropped. */
  readonly closed: boolean;
  /** Aborts when the stream closes; running commands watch it to stop. */
  readonly signal: AbortSignal;
  onData(listener: (data: Buffer) => void): void;
}

export class DeviceStream implements ServiceStream {
  private readonly queue: Buffer[] = [];
  private awaitingOkay = false;
  private endRequested = false;
  private readonly controller = new AbortController();
  private readonly dataListeners: ((data: Buffer) => void)[] = [];
  private readonly pendingData: Buffer[] = [];

  constructor(
    readonly localId: number,
    readonly remoteId: number,
    private readonly maxPayload: number,
    private readonly send: SendMessage,
  ) {}

  get closed(): boolean {
    return this.controller.signal.aborted;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  write(data: Buffer | string): void {
    if (this.closed || this.endRequested) return;
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    for (let offset = 0; offset < bytes.length; offset += this.maxPayload) {
      this.queue.push(bytes.subarray(offset, offset + this.maxPayload));
    }
    this.pump();
  }

  end(): void {
    this.endRequested = true;
    this.pump();
  }

  onData(listener: (data: Buffer) => void): void {
    this.dataListeners.push(listener);
    // Data that arrived before the service subscribed is not lost.
    for (const chunk of this.pendingData.splice(0)) listener(chunk);
  }

  /** The peer acknowledged our last WRTE. */
  handleOkay(): void {
    this.awaitingOkay = false;
    this.pump();
  }

  /** The peer wrote to us: deliver, then acknowledge. */
  handleWrite(data: Buffer): void {
    if (this.closed) return;
    if (this.dataListeners.length === 0) this.pendingData.push(data);
    for (const listener of this.dataListeners) listener(data);
    this.send(A_OKAY, this.localId, this.remoteId);
  }

  /** The peer closed the stream, or the link is gone: no CLSE is sent back. */
  handleClose(): void {
    this.queue.length = 0;
    this.controller.abort();
  }

  /** The queued bytes the next WRTE carries: whole writes while they fit in one payload (write() split larger ones). */
  private takeUpToPayload(): Buffer | undefined {
    const first = this.queue.shift();
    if (!first) return undefined;
    const parts = [first];
    let size = first.length;
    while (this.queue.length > 0 && size + this.queue[0]!.length <= this.maxPayload) {
      const part = this.queue.shift()!;
      parts.push(part);
      size += part.length;
    }
    return parts.length === 1 ? first : Buffer.concat(parts, size);
  }

  private pump(): void {
    if (this.closed || this.awaitingOkay) return;
    const next = this.takeUpToPayload();
    if (next) {
      this.awaitingOkay = true;
      this.send(A_WRTE, this.localId, this.remoteId, next);
      return;
    }
    if (this.endRequested) {
      this.send(A_CLSE, this.localId, this.remoteId);
      this.controller.abort();
    }
  }
}
