/** The API the renderer sees. Part of the contract (shared/contract.ts). */
import type { OpenScreen } from '../screen-wire';
import type { MethodInput, MethodName, MethodOutput } from './methods';
import type { HostEvent } from './events';

/** The API the renderer sees: one named async method per contract entry, the event stream, and live screens. */
export type RendererApi = { [M in MethodName]: (input: MethodInput<M>) => Promise<MethodOutput<M>> } & {
  onEvent(listener: (event: HostEvent) => void): () => void;
  openScreen: OpenScreen;
};
