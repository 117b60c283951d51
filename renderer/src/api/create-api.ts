/**
 * Picks the transport: the Electron preload when it is there, else HTTP + WebSocket to the host
 * that served this page. Either way the pages get the same RendererApi and a connection source.
 */
import type { RendererApi } from '../../../shared/contract';
import { type ConnectionSource, alwaysOpen } from './connection-status';
import { EventSocket, eventSocketUrl } from './event-socket';
import { callOverHttp, methodsFrom } from './http-methods';
import { findPreloadBridge } from './preload-bridge';

export interface ApiHandle {
  api: RendererApi;
  connection: ConnectionSource;
  transport: 'electron' | 'http';
  dispose(): void;
}

export function createApi(global: Window = window): ApiHandle {
  const bridge = findPreloadBridge(global);
  if (bridge) {
    const api: RendererApi = { ...methodsFrom((m, input) => bridge.call(m, input)), onEvent: (l) => bridge.onEvent(l) };
    return { api, connection: alwaysOpen(), transport: 'electron', dispose: () => undefined };
  }
  const socket = new EventSocket({ url: eventSocketUrl(global.location) });
  const api: RendererApi = { ...methodsFrom((m, input) => callOverHttp(m, input)), onEvent: (l) => socket.onEvent(l) };
  return { api, connection: socket, transport: 'http', dispose: () => socket.dispose() };
}
