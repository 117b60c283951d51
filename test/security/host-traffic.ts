/**
 * Who reached the host's server: every connection it accepts (HTTP requests and WebSocket
 * upgrades alike), seen through Node's `net.server.socket` diagnostics channel, minus those this
 * test process opened itself (its MCP client). What is left came from another process, the
 * browser the tools drive: the numbers a "the host saw nothing" assertion reads.
 */
import diagnostics from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

export interface HostTraffic {
  /** Connections to the host from outside this process since the watch began. */
  foreignConnections(): number;
  /** Of those, the ones that sent the host at least one byte (a request, an upgrade). */
  foreignRequests(): number;
  dispose(): void;
}

export function watchHostTraffic(hostPort: number): HostTraffic {
  const accepted: Array<{ peerPort: number; socket: Socket }> = [];
  const ownClients = new Set<number>();
  const onServer = (message: unknown) => {
    const { socket } = message as { socket: Socket };
    if (socket.localPort === hostPort && socket.remotePort !== undefined)
      accepted.push({ peerPort: socket.remotePort, socket });
  };
  const onClient = (message: unknown) => {
    const { socket } = message as { socket: Socket };
    const note = () => {
      if (socket.localPort !== undefined) ownClients.add(socket.localPort);
    };
    if (socket.localPort !== undefined) note();
    else socket.once('connect', note);
  };
  diagnostics.subscribe('net.server.socket', onServer);
  diagnostics.subscribe('net.client.socket', onClient);
  const foreign = () => accepted.filter((a) => !ownClients.has(a.peerPort));
  return {
    foreignConnections: () => foreign().length,
    foreignRequests: () => foreign().filter((a) => a.socket.bytesRead > 0).length,
    dispose: () => {
      diagnostics.unsubscribe('net.server.socket', onServer);
      diagnostics.unsubscribe('net.client.socket', onClient);
    },
  };
}
