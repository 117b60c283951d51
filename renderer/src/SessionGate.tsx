/** Shows the app while the page holds a UI session, and how to open one when it does not. */
import { type ReactNode, useSyncExternalStore } from 'react';
import { NoSessionPage } from './NoSessionPage';
import type { SessionSource } from './api/ui-session';

export function SessionGate(props: { session: SessionSource; children: ReactNode }): ReactNode {
  const state = useSyncExternalStore(props.session.subscribe, props.session.get);
  return state === 'active' ? props.children : <NoSessionPage />;
}
