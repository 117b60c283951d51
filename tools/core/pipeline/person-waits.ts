/**
 * Time waiting for a person is not tool time. A tool that asks a person while it runs
 * (shell_execute's command gate, get_set_settings) asks through a port the host wires to the
 * approval gate, which holds the call here by its id: while held, the attempt's run timeout
 * stands still (it resumes with the time it had left), the wait is counted apart from the run
 * in the call's span and usage, and the caller hears that the call waits (progress). The retry
 * stage lists a call here while its attempts run, if its tool is self-gated: a tool that asks a
 * person itself is one by definition, and no other call pays for the list.
 */
import type { ProgressUpdate } from '../tool';
import type { DecidedBy } from '../trace-span';
import { DEFAULT_SELF_GATED } from '../permission';
import type { Clock } from './clock';
import type { PipelineCall } from './pipeline-call';

/** A call held for a person; `release` once the person answered (or the wait ended). */
export interface PersonHold {
  /** Tells the caller how the wait goes (an MCP progress notification). */
  progress(update: ProgressUpdate): void;
  release(): void;
}

export class PersonWaits {
  private readonly running = new Map<string, { call: PipelineCall; holds: number; since: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly selfGatedIds: ReadonlySet<string> = DEFAULT_SELF_GATED,
  ) {}

  /** The call's attempts begin; a call id already listed (a caller reusing ids) is left as it is. */
  enter(c: PipelineCall): void {
    if (!c.tool.selfGated && !this.selfGatedIds.has(c.tool.id)) return;
    if (!this.running.has(c.callId)) this.running.set(c.callId, { call: c, holds: 0, since: 0 });
  }

  leave(c: PipelineCall): void {
    if (this.running.size > 0 && this.running.get(c.callId)?.call === c) this.running.delete(c.callId);
  }

  /** A running tool's ask was denied: its span says who decided. */
  decided(callId: string, by: DecidedBy): void {
    const entry = this.running.get(callId);
    if (entry !== undefined) entry.call.decidedBy = by;
  }

  /** Holds the running call with this id for a person; undefined when no such call runs. */
  hold(callId: string): PersonHold | undefined {
    const entry = this.running.get(callId);
    if (entry === undefined) return undefined;
    const { call } = entry;
    if (entry.holds++ === 0) {
      entry.since = this.clock.now();
      const timer = call.timer;
      if (timer?.handle !== undefined) {
        this.clock.clearTimeout(timer.handle);
        timer.handle = undefined;
        timer.remainingMs = Math.max(0, timer.remainingMs - (entry.since - timer.since));
      }
    }
    let released = false;
    return {
      progress: (update) => {
        if (!released && !call.ended) call.call.onProgress?.(update);
      },
      release: () => {
        if (released) return;
        released = true;
        if (--entry.holds > 0) return;
        const now = this.clock.now();
        call.personWaitMs += now - entry.since;
        call.attemptWaitMs += now - entry.since;
        const timer = call.timer;
        if (timer !== undefined && timer.handle === undefined && !call.ended) {
          timer.since = now;
          timer.handle = this.clock.setTimeout(timer.fire, timer.remainingMs);
        }
      },
    };
  }
}
