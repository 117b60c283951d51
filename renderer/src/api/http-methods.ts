/**
 * The contract's methods over HTTP (headless host): method `m` is `POST /api/rpc/m` with the JSON
 * input as body. The person's UI session (an HttpOnly cookie set by the one-time link) goes with
 * same-origin credentials; the session's CSRF token goes in a header, which a page of another site
 * cannot set.
 */
import {
  METHOD_NAMES,
  type MethodInput,
  type MethodName,
  type MethodOutput,
  type RendererApi,
} from '../../../shared/contract';
import { CSRF_HEADER } from '../../../shared/ui-session';
import { HostRequestError } from './host-request-error';
import { parseOutput } from './parse-output';

export type ContractMethods = Omit<RendererApi, 'onEvent' | 'openScreen'>;

/** Methods that may legitimately wait for a person (an approval) get no client-side deadline. */
const UNBOUNDED: ReadonlySet<MethodName> = new Set(['callTool', 'defineShortcut']);
const REQUEST_TIMEOUT_MS = 30_000;

async function errorBody(response: Response): Promise<{ message: string; fields: string[] }> {
  try {
    const body = (await response.json()) as { error?: unknown; fields?: unknown };
    const fields = Array.isArray(body.fields) ? body.fields.map(String) : [];
    if (typeof body.error === 'string') return { message: body.error, fields };
  } catch {
    // Not JSON: fall through to the status text.
  }
  return { message: response.statusText || `HTTP ${response.status}`, fields: [] };
}

export interface HttpSession {
  /** The session's CSRF token (from its cookie), read at each call. */
  csrf(): string | undefined;
  /** Called when the host answers 401: the page has no session (any more). */
  onNoSession?(): void;
}

export async function callOverHttp<M extends MethodName>(
  method: M,
  input: MethodInput<M>,
  base = '',
  session?: HttpSession,
): Promise<MethodOutput<M>> {
  let response: Response;
  const csrf = session?.csrf();
  try {
    response = await fetch(`${base}/api/rpc/${method}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json', ...(csrf ? { [CSRF_HEADER]: csrf } : {}) },
      body: JSON.stringify(input ?? {}),
      ...(UNBOUNDED.has(method) ? {} : { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
    });
  } catch (e) {
    const reason =
      e instanceof Error && e.name === 'TimeoutError'
        ? `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`
        : 'the host could not be reached';
    throw new HostRequestError(method, 0, `Request failed: ${reason}.`);
  }
  if (!response.ok) {
    if (response.status === 401) session?.onNoSession?.();
    const { message, fields } = await errorBody(response);
    throw new HostRequestError(method, response.status, message, fields);
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    throw new HostRequestError(method, response.status, 'The host answered with something that is not JSON.');
  }
  return parseOutput(method, body);
}

/** One named method per contract entry, all going through `call`. */
export function methodsFrom(
  call: <M extends MethodName>(method: M, input: MethodInput<M>) => Promise<MethodOutput<M>>,
): ContractMethods {
  const methods: Record<string, (input: unknown) => Promise<unknown>> = {};
  for (const name of METHOD_NAMES) methods[name] = (input) => call(name, input as MethodInput<typeof name>);
  return methods as unknown as ContractMethods;
}
