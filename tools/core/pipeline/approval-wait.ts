/**
 * The waiting card's lifecycle: the request goes to the decider (the host's queue, which shows
 * the person a card), the caller hears every few seconds that the call still waits, and the wait
 * ends with the person's answer, at the deadline, or the moment the caller is gone. A wait that
 * ends without an answer aborts the decider's signal ('expired' or 'withdrawn'), so the card is
 * withdrawn and can no longer be approved.
 */
import type { ApprovalDecider, ApprovalDecision, ApprovalRequest } from '../permission';
import type { ProgressUpdate } from '../tool';
import type { Clock, TimerHandle } from './clock';

type Ended =
  | { kind: 'decided'; decision: ApprovalDecision }
  | { kind: 'timeout' }
  | { kind: 'withdrawn' }
  | { kind: 'failed'; message: string };

/** How a wait ended, and how long it took. */
export type Waited = Ended & { waitedMs: number };

export interface WaitTerms {
  decide: ApprovalDecider;
  clock: Clock;
  timeoutMs: number;
  /** How often the caller hears that the call still waits. */
  progressMs: number;
}

/** "0:42", "1:40": how a wait reads to a person and to a model. */
export function minutesSeconds(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

export async function waitForPerson(
  terms: WaitTerms,
  request: ApprovalRequest,
  signal: AbortSignal | undefined,
  onProgress: ((update: ProgressUpdate) => void) | undefined,
): Promise<Waited> {
  const since = terms.clock.now();
  const ended = await new Promise<Ended>((resolve) => settleWait(terms, request, signal, onProgress, resolve));
  return { ...ended, waitedMs: terms.clock.now() - since };
}

function settleWait(
  { decide, clock, timeoutMs, progressMs }: WaitTerms,
  request: ApprovalRequest,
  signal: AbortSignal | undefined,
  onProgress: ((update: ProgressUpdate) => void) | undefined,
  resolve: (ended: Ended) => void,
): void {
  const prompt = new AbortController();
  const deadline = clock.now() + timeoutMs;
  let settled = false;
  let timer: TimerHandle | undefined;
  let ticker: TimerHandle | undefined;
  let ticks = 0;
  const settle = (ended: Ended) => {
    if (settled) return;
    settled = true;
    if (timer !== undefined) clock.clearTimeout(timer);
    if (ticker !== undefined) clock.clearTimeout(ticker);
    signal?.removeEventListener('abort', onAbort);
    if (ended.kind === 'timeout') prompt.abort('expired');
    else if (ended.kind === 'withdrawn') prompt.abort('withdrawn');
    resolve(ended);
  };
  const onAbort = () => settle({ kind: 'withdrawn' });
  if (signal?.aborted) return settle({ kind: 'withdrawn' });
  signal?.addEventListener('abort', onAbort, { once: true });
  timer = clock.setTimeout(() => settle({ kind: 'timeout' }), timeoutMs);
  const tick = () => {
    ticker = undefined;
    if (settled) return;
    ticks++;
    const left = minutesSeconds(deadline - clock.now());
    onProgress?.({ progress: ticks, message: `waiting for a person's approval, ${left} left` });
    ticker = clock.setTimeout(tick, progressMs);
  };
  if (onProgress !== undefined) ticker = clock.setTimeout(tick, progressMs);
  let answer: Promise<ApprovalDecision>;
  try {
    answer = Promise.resolve(decide(request, prompt.signal));
  } catch (e) {
    return settle({ kind: 'failed', message: messageOf(e) });
  }
  answer.then(
    (decision) =>
      settle(
        isDecision(decision)
          ? { kind: 'decided', decision }
          : { kind: 'failed', message: 'the approver gave no valid decision' },
      ),
    (e: unknown) => settle({ kind: 'failed', message: messageOf(e) }),
  );
}

function isDecision(value: unknown): value is ApprovalDecision {
  const d = (value as { decision?: unknown } | null)?.decision;
  return d === 'approve_once' || d === 'approve_session' || d === 'approve_target' || d === 'deny';
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
