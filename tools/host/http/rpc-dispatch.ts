/**
 * The contract's methods over HTTP: `POST /api/rpc/<method>` with the JSON input as body. The input
 * is parsed with the method's schema before the handler sees it; a bad input is a 400 with the
 * field paths, never a crash.
 */
import type { z } from 'zod';
import { type Contract, type MethodName, type MethodOutput, contract } from '../../../shared/contract';

export type HostApiHandlers = {
  [M in MethodName]: (input: z.output<Contract[M]['input']>) => Promise<MethodOutput<M>> | MethodOutput<M>;
};

export type RpcOutcome =
  | { status: 200; body: unknown }
  | { status: 400 | 404 | 500; body: { error: string; fields?: string[] } };

/** A handler's refusal of input its schema let through (a name that does not exist): a 400 naming the fields. */
export class InputRefusedError extends Error {
  constructor(
    readonly fields: string[],
    message: string,
  ) {
    super(message);
    this.name = 'InputRefusedError';
  }
}

export function isMethodName(name: string): name is MethodName {
  return Object.hasOwn(contract, name);
}

export async function dispatchRpc(handlers: HostApiHandlers, method: string, input: unknown): Promise<RpcOutcome> {
  if (!isMethodName(method)) return { status: 404, body: { error: `Unknown method '${method}'.` } };
  const parsed = contract[method].input.safeParse(input ?? {});
  if (!parsed.success) {
    return {
      status: 400,
      body: {
        error:
          `Invalid input for ${method}: ` +
          parsed.error.issues.map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`).join('; '),
        fields: parsed.error.issues.map((i) => i.path.join('.')),
      },
    };
  }
  try {
    const handler = handlers[method] as (input: unknown) => unknown;
    return { status: 200, body: await handler(parsed.data) };
  } catch (e) {
    // A handler that refuses its input says which fields (e.g. a bad setting): that is the caller's error.
    const fields = (e as { fields?: unknown }).fields;
    if (Array.isArray(fields))
      return { status: 400, body: { error: (e as Error).message, fields: fields.map(String) } };
    return { status: 500, body: { error: e instanceof Error ? e.message : String(e) } };
  }
}
