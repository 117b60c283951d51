/**
 * Makes the RendererApi and the connection state available to every component, wires the event
 * stream into the query cache for the app's lifetime, and refetches everything after the event
 * stream comes back from a gap (events sent while it was down are lost).
 */
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, createContext, useContext, useEffect, useSyncExternalStore } from 'react';
import type { RendererApi } from '../../../shared/contract';
import type { ConnectionSource, ConnectionState } from '../api/connection-status';
import { connectEventsToCache } from './event-bridge';

interface ApiContextValue {
  api: RendererApi;
  connection: ConnectionSource;
}

const ApiContext = createContext<ApiContextValue | undefined>(undefined);

export function ApiProvider(props: {
  api: RendererApi;
  connection: ConnectionSource;
  client: QueryClient;
  children: ReactNode;
}): React.JSX.Element {
  const { api, connection, client } = props;
  useEffect(() => connectEventsToCache(api, client), [api, client]);
  useEffect(() => {
    const unsubscribe = connection.subscribe(() => {
      const state = connection.get();
      if (state.status !== 'open') return;
      // Whatever happened before the stream was open (the first time: while the page was
      // loading) reached no event; a refetch picks it up.
      void client.invalidateQueries();
    });
    // The stream may have opened before this listener was there.
    if (connection.get().status === 'open') void client.invalidateQueries();
    return unsubscribe;
  }, [connection, client]);
  return (
    <QueryClientProvider client={client}>
      <ApiContext.Provider value={{ api, connection }}>{props.children}</ApiContext.Provider>
    </QueryClientProvider>
  );
}

export function useApi(): RendererApi {
  const value = useContext(ApiContext);
  if (!value) throw new Error('useApi() outside <ApiProvider>');
  return value.api;
}

export function useConnection(): { state: ConnectionState; retryNow(): void } {
  const value = useContext(ApiContext);
  if (!value) throw new Error('useConnection() outside <ApiProvider>');
  const state = useSyncExternalStore(value.connection.subscribe, value.connection.get);
  return { state, retryNow: () => value.connection.retryNow() };
}
