/**
 * Picks the transport: the Electron preload when it is there, else HTTP + WebSocket to the host
 * that served this page, with the person's UI session. Either way the pages get the same
 * RendererApi, a connection source and a session source.
 */
import type { RendererApi } from '../../../shared/contract';
import { type ConnectionSource, alwaysOpen, neverOpen } from './connection-status';
import { EventSocket, eventSocketUrl } from './event-socket';
import { callOverHttp, methodsFrom } from './http-methods';
import { findPreloadBridge } from './preload-bridge';
import { screenOverSocket } from './screen-socket';
import { type SessionSource, SessionStore, alwaysActive, csrfFromCookies } from './ui-session';

export interface ApiHandle {
  api: RendererApi;
  connection: ConnectionSource;
  session: SessionSource;
  transport: 'electron' | 'http';
  dispose(): void;
}

export function createApi(global: Window = window): ApiHandle {
  const bridge = findPreloadBridge(global);
  if (bridge) {
    const api: RendererApi = {
      ...methodsFrom((m, input) => bridge.call(m, input)),
      onEvent: (l) => bridge.onEvent(l),
      openScreen: bridge.openScreen,
    };
    return { api, connection: alwaysOpen(), session: alwaysActive(), transport: 'electron', dispose: () => undefined };
  }
  const csrf = () => csrfFromCookies(global.document.cookie);
  const session = new SessionStore(csrf() ? 'active' : 'missing');
  const httpSession = { csrf, onNoSession: () => session.lost() };
  const methods = methodsFrom((m, input) => callOverHttp(m, input, '', httpSession));
  if (session.get() === 'missing') {
    // Without a session the socket would only be refused, again and again.
    const api: RendererApi = {
      ...methods,
      onEvent: () => () => undefined,
      openScreen: (_request, listener) => {
        listener.closed('no UI session');
        return { ack: () => undefined, close: () => undefined };
      },
    };
    return { api, connection: neverOpen('no UI session'), session, transport: 'http', dispose: () => undefined };
  }
  const socket = new EventSocket({ url: eventSocketUrl(global.location) });
  session.subscribe(() => socket.dispose());
  const api: RendererApi = {
    ...methods,
    onEvent: (l) => socket.onEvent(l),
    openScreen: screenOverSocket(global.location),
  };
  return { api, connection: socket, session, transport: 'http', dispose: () => socket.dispose() };
}
