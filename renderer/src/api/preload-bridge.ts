/**
 * In Electron the preload exposes `window.toolgate`: one named method per contract entry plus
 * `onEvent` and `openScreen` (a device's live screen: status messages, frames as bytes, acks back).
 * Its answers are parsed with the contract like the HTTP ones; the page trusts the preload no more
 * than it trusts the network.
 */
import {
  METHOD_NAMES,
  type HostEvent,
  type MethodInput,
  type MethodName,
  type MethodOutput,
} from '../../../shared/contract';
import { type OpenScreen, ScreenStatus, decodeFrame } from '../../../shared/screen-wire';
import { HostRequestError } from './host-request-error';
import { parseOutput } from './parse-output';

type BridgeFunction = (input: unknown) => Promise<unknown>;

export interface PreloadBridge {
  call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>>;
  onEvent(listener: (event: HostEvent) => void): () => void;
  openScreen: OpenScreen;
}

/** What the preload's `openScreen` delivers: `{ status }`, `{ frame }` (the wire bytes) or `{ closed }`. */
type ScreenMessage = { status?: unknown; frame?: unknown; closed?: unknown };
type ExposedOpenScreen = (
  request: unknown,
  onMessage: (message: ScreenMessage) => void,
) => { ack(seq: number): void; close(): void };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null;
}

/** The preload's API when this page runs inside Electron with every contract method exposed. */
export function findPreloadBridge(global: unknown): PreloadBridge | undefined {
  if (!isRecord(global)) return undefined;
  const exposed = global.toolgate;
  if (!isRecord(exposed) || typeof exposed.onEvent !== 'function' || typeof exposed.openScreen !== 'function')
    return undefined;
  if (!METHOD_NAMES.every((m) => typeof exposed[m] === 'function')) return undefined;
  const onEvent = exposed.onEvent as (listener: (event: unknown) => void) => unknown;
  const openScreen = exposed.openScreen as ExposedOpenScreen;
  return {
    async call(method, input) {
      let body: unknown;
      try {
        body = await (exposed[method] as BridgeFunction)(input ?? {});
      } catch (e) {
        // ipcRenderer.invoke wraps the main side's message; keep only the part a person needs.
        const message =
          e instanceof Error ? e.message.replace(/^Error invoking remote method '[^']+': (Error: )?/, '') : String(e);
        throw new HostRequestError(method, 500, message);
      }
      return parseOutput(method, body);
    },
    onEvent(listener) {
      const dispose = onEvent((event) => listener(event as HostEvent));
      return typeof dispose === 'function' ? (dispose as () => void) : () => undefined;
    },
    openScreen(request, listener) {
      return openScreen({ ...request }, (message) => {
        if (message.frame instanceof Uint8Array) {
          const frame = decodeFrame(message.frame);
          if (frame) listener.frame(frame);
        } else if (message.status !== undefined) {
          const status = ScreenStatus.safeParse(message.status);
          if (status.success) listener.status(status.data);
        } else if (typeof message.closed === 'string') listener.closed(message.closed);
      });
    },
  };
}
