/** Entry point: picks the transport, creates the query cache and renders the app (or how to open a session). */
import './zod-config';
import { QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createApi } from './api/create-api';
import { App } from './App';
import { SessionGate } from './SessionGate';
import { ApiProvider } from './state/api-context';
import './styles/app.css';

const client = new QueryClient({
  defaultOptions: {
    // Events keep the caches current; refetches happen on mount after 10 s, focus and reconnect.
    queries: { staleTime: 10_000, retry: 1, refetchOnWindowFocus: true },
  },
});

const handle = createApi(window);
const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <SessionGate session={handle.session}>
        <ApiProvider api={handle.api} connection={handle.connection} client={client}>
          <App />
        </ApiProvider>
      </SessionGate>
    </StrictMode>,
  );
}
