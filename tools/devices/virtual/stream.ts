/**
 * One ADB stream on the device side (OPEN → OKAY … CLSE). Writes are split to the negotiated
 * payload size and sent one WRTE at a time: the next WRTE waits for the peer's OKAY, as adbd does.
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

  private pump(): void {
    if (this.closed || this.awaitingOkay) return;
    const next = this.queue.shift();
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
