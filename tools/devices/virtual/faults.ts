/**
 * Fault injection settings. The object is mutable and read at the moment each fault matters,
 * so a test can flip a fault on between two commands.
 */
export interface FaultSettings {
  /**
   * Every shell/exec command drops all sockets right after it is received (before any output). Stays on until cleared.
   */
  unplugMidCommand?: boolean;
  /** Every shell/exec command is received and logged, then never answered. Stays on until cleared. */
  hang?: boolean;
  /**
   * Simple commands of these names start and never finish, holding up the rest of their line (a
   * dumpsys stuck behind a lock in system_server); what ran before them has answered. Until cleared.
   */
  hangCommands?: string[];
  /** New connections are challenged with AUTH twice and never accepted (adb shows "unauthorized"). */
  unauthorized?: boolean;
  /**
   * The next OPEN is refused with CLSE (adbkit: `FailError: Failure: 'closed'`); the reason goes to logcat. One-shot.
   */
  failNextOpen?: string;
  /**
   * The cable stays out: new TCP connections are closed at once, so adb keeps the device
   * `offline` instead of reconnecting (it retries within about a second otherwise).
   */
  refuseConnections?: boolean;
  /** Delay, in ms, before the device handles each incoming transport message (order is kept). */
  latencyMs?: number;
  /**
   * Called with each simple command's argv as it starts, before it runs: a test changes the phone
   * at that moment (the person's keyboard disabled while ADBKeyboard types, a command that hangs
   * from then on). The phone then answers as its commands answer for the changed state.
   */
  beforeCommand?: (argv: readonly string[]) => void;
}

/** Returns the pending one-shot refusal reason and clears it. */
export function takeFailNextOpen(faults: FaultSettings): string | undefined {
  const reason = faults.failNextOpen;
  if (reason !== undefined) delete faults.failNextOpen;
  return reason;
}

/** Resolves after `ms`, or at once when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Resolves only when the signal aborts: what a hung command does. */
export function waitForAbort(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
