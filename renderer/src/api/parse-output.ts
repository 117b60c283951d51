/**
 * Every answer from the host is parsed with the contract's output schema before a page sees it, so
 * a host that drifted from the contract shows up as one clear error instead of a broken page.
 */
import { type MethodName, type MethodOutput, contract } from '../../../shared/contract';
import { HostRequestError } from './host-request-error';

export function parseOutput<M extends MethodName>(method: M, body: unknown): MethodOutput<M> {
  const parsed = contract[method].output.safeParse(body);
  if (parsed.success) return parsed.data as MethodOutput<M>;
  const issues = parsed.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(response)'}: ${i.message}`)
    .join('; ');
  throw new HostRequestError(method, 200, `The host's answer does not match the contract: ${issues}`);
}
