/**
 * The device side of the ADB transport over TCP (what `adb connect HOST:PORT` talks to).
 * Each accepted socket is a session: CNXN handshake (or the AUTH dance for the "unauthorized"
 * fault), then OPEN/OKAY/WRTE/CLSE streams handed to services by name.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { sleep, takeFailNextOpen, type FaultSettings } from './faults';
import { type LinkSettings, ThrottledPipe } from './link-throttle';
import {
  A_AUTH,
  A_CLSE,
  A_CNXN,
  A_OKAY,
  A_OPEN,
  A_VERSION,
  A_WRTE,
  AUTH_SIGNATURE,
  AUTH_TOKEN,
  DEVICE_MAX_PAYLOAD,
  MessageParser,
  encodeMessage,
  type AdbMessage,
} from './protocol';
import { DeviceStream } from './stream';

export type ServiceHandler = (stream: DeviceStream) => void | Promise<void>;

export interface TransportHandlers {
  /** The CNXN payload: `device::ro.product.name=…;…;features=…`. */
  banner(): string;
  faults(): FaultSettings;
  /** The handler for a service name, or null to refuse it (CLSE). */
  resolveService(service: string): ServiceHandler | null;
  /** Told when an OPEN is refused, with the reason. */
  onRefused?(service: string, reason: string): void;
  /** The cable's throughput and latency (link-throttle.ts); none by default. */
  link?(): LinkSettings | undefined;
}

export class TransportServer {
  private readonly server: Server;
  private readonly sessions = new Set<Session>();
  private holds = 0;

  constructor(handlers: TransportHandlers) {
    this.server = createServer((socket) => {
      if (this.holds > 0 || handlers.faults().refuseConnections) {
        socket.destroy();
        return;
      }
      const session = new Session(socket, handlers);
      this.sessions.add(session);
      socket.on('close', () => this.sessions.delete(session));
    });
  }

  listen(port: number, host = '127.0.0.1'): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve((this.server.address() as AddressInfo).port);
      });
    });
  }

  /** Drops every connection now, as if the cable were pulled. The port keeps listening. */
  dropAll(): void {
    for (const session of this.sessions) session.destroy();
  }

  /**
   * Pulls the cable and keeps it out until the returned release is called: current connections
   * drop, new ones are closed at once. Independent of the `refuseConnections` fault, which tests own.
   */
  hold(): () => void {
    this.holds++;
    this.dropAll();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
    };
  }

  close(): Promise<void> {
    this.dropAll();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

type SessionState = 'waiting-cnxn' | 'authorizing' | 'online';

class Session {
  private readonly parser = new MessageParser();
  private readonly streams = new Map<number, DeviceStream>();
  private state: SessionState = 'waiting-cnxn';
  private maxPayload = DEVICE_MAX_PAYLOAD;
  private nextLocalId = 1;
  private incoming: Promise<void> = Promise.resolve();
  private readonly authToken = randomBytes(20);
  private readonly outgoing: ThrottledPipe;
  private readonly incomingLink: ThrottledPipe;

  constructor(
    private readonly socket: Socket,
    private readonly handlers: TransportHandlers,
  ) {
    const link = () => handlers.link?.();
    this.outgoing = new ThrottledPipe((bytes) => void (socket.destroyed || socket.write(bytes)), link);
    this.incomingLink = new ThrottledPipe((chunk) => this.receive(chunk), link);
    socket.setNoDelay(true);
    socket.on('data', (chunk) => this.incomingLink.push(chunk));
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.dropStreams());
  }

  destroy(): void {
    this.outgoing.close();
    this.incomingLink.close();
    this.socket.destroy();
    this.dropStreams();
  }

  private receive(chunk: Buffer): void {
    let messages: AdbMessage[];
    try {
      messages = this.parser.push(chunk);
    } catch {
      this.destroy();
      return;
    }
    for (const message of messages) {
      // Messages are handled strictly in order; injected latency delays each one.
      this.incoming = this.incoming.then(async () => {
        const latency = this.handlers.faults().latencyMs ?? 0;
        if (latency > 0) await sleep(latency);
        if (!this.socket.destroyed) this.handle(message);
      });
    }
  }

  private send = (command: number, arg0: number, arg1: number, data?: Buffer): void => {
    if (!this.socket.destroyed) this.outgoing.push(encodeMessage(command, arg0, arg1, data));
  };

  private handle(message: AdbMessage): void {
    switch (message.command) {
      case A_CNXN:
        return this.handleConnect(message);
      case A_AUTH:
        return this.handleAuth(message);
      case A_OPEN:
        return this.handleOpen(message);
      case A_OKAY:
        return this.streams.get(message.arg1)?.handleOkay();
      case A_WRTE:
        return this.streams.get(message.arg1)?.handleWrite(message.data);
      case A_CLSE:
        return this.closeStream(message.arg1);
      default:
        return; // STLS and anything newer: ignored, the host falls back.
    }
  }

  private handleConnect(message: AdbMessage): void {
    this.maxPayload = Math.min(message.arg1 || DEVICE_MAX_PAYLOAD, DEVICE_MAX_PAYLOAD);
    // A reconnecting host sends CNXN again on the same link: start over.
    this.dropStreams();
    if (this.handlers.faults().unauthorized) {
      this.state = 'authorizing';
      this.send(A_AUTH, AUTH_TOKEN, 0, this.authToken);
      return;
    }
    this.goOnline(Math.min(message.arg0, A_VERSION));
  }

  private handleAuth(message: AdbMessage): void {
    if (this.state !== 'authorizing') return;
    // A second challenge makes the host send its public key, i.e. ask the user; nobody answers.
    if (message.arg0 === AUTH_SIGNATURE) this.send(A_AUTH, AUTH_TOKEN, 0, this.authToken);
  }

  private goOnline(version: number): void {
    this.state = 'online';
    this.send(A_CNXN, version, this.maxPayload, Buffer.from(this.handlers.banner(), 'utf8'));
  }

  private handleOpen(message: AdbMessage): void {
    const remoteId = message.arg0;
    if (this.state !== 'online') return;
    const service = message.data.toString('utf8').replace(/\0+$/, '');
    const refusal = takeFailNextOpen(this.handlers.faults());
    const handler = refusal === undefined ? this.handlers.resolveService(service) : null;
    if (!handler) {
      this.handlers.onRefused?.(service, refusal ?? 'unknown service');
      this.send(A_CLSE, 0, remoteId);
      return;
    }
    const localId = this.nextLocalId++;
    const stream = new DeviceStream(localId, remoteId, this.maxPayload, this.send);
    this.streams.set(localId, stream);
    stream.signal.addEventListener('abort', () => this.streams.delete(localId), { once: true });
    this.send(A_OKAY, localId, remoteId);
    Promise.resolve()
      .then(() => handler(stream))
      .catch(() => stream.end());
  }

  private closeStream(localId: number): void {
    this.streams.get(localId)?.handleClose();
  }

  private dropStreams(): void {
    for (const stream of [...this.streams.values()]) stream.handleClose();
    this.streams.clear();
  }
}
