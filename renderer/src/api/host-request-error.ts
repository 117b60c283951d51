/**
 * A failed request to the host, as the pages show it: which method, the HTTP status when there was
 * one (0 = the host could not be reached), and the host's own message.
 */
export class HostRequestError extends Error {
  override readonly name = 'HostRequestError';

  constructor(
    readonly method: string,
    readonly status: number,
    message: string,
    /** The input fields the host refused, when it named them (HTTP 400). */
    readonly fields: readonly string[] = [],
  ) {
    super(message);
  }

  /** True when the host was not reached at all (network down, host stopped). */
  get unreachable(): boolean {
    return this.status === 0;
  }
}

export function describeError(error: unknown): string {
  if (error instanceof HostRequestError) {
    const where = error.unreachable ? 'host unreachable' : `HTTP ${error.status}`;
    return `${error.message} (${error.method}, ${where})`;
  }
  return error instanceof Error ? error.message : String(error);
}
