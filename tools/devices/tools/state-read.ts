/**
 * A UI action's last command with the screen state for the environment gate read in the same shell
 * line, right after it: one round trip to the phone instead of two. The line is
 * `COMMAND`, an exit-status line carrying a per-command nonce (so nothing on the screen can forge
 * it), then STATE_COMMAND. The action's own answer is known once its status line arrives; the state
 * read after it gets at most STATE_READ_LIMIT_MS, so a dumpsys stuck behind a lock in system_server
 * never turns an action that happened into a failure, nor holds the call longer than a separate
 * read would have.
 */
import { randomBytes } from 'node:crypto';
import type { CommandOptions, DeviceManager, ShellResult } from '../manager/device-manager';
import { STATE_COMMAND } from '../manager/device-telemetry';

/** As long as the separate read after a UI action may take. */
export const STATE_READ_LIMIT_MS = 5_000;

export type StateReadOutcome =
  /** The action's answer, and the state read's output (undefined: it was cut, the state stays unknown). */
  | { own: ShellResult; state: string | undefined }
  /** No status line came back: the line as a plain command's result, for the caller's usual checks. */
  | { raw: ShellResult };

function statusLine(nonce: string): RegExp {
  return new RegExp(`__toolgate_action_${nonce}=(\\d+)\\r?\\n`);
}

/** The action's part of the output up to its status line, and what follows it. */
function split(output: string, status: RegExp): { own: ShellResult; rest: string } | undefined {
  const m = status.exec(output);
  if (!m) return undefined;
  return {
    own: { output: output.slice(0, m.index), exitCode: Number(m[1]), truncated: false },
    rest: output.slice(m.index + m[0].length),
  };
}

/** Runs `command` (already quoted) and then reads the screen state; `opts.onChunk` is not supported here. */
export async function runWithStateRead(
  manager: DeviceManager,
  serial: string,
  command: string,
  opts: Omit<CommandOptions, 'onChunk'>,
): Promise<StateReadOutcome> {
  const nonce = randomBytes(6).toString('hex');
  const status = statusLine(nonce);
  const line = `${command}\necho __toolgate_action_${nonce}=$?\n${STATE_COMMAND}`;
  const chunks: Buffer[] = [];
  let tail = '';
  let own: ShellResult | undefined;
  const limit = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const onChunk = (chunk: Buffer) => {
    if (own) return;
    chunks.push(chunk);
    // The status line may arrive split across chunks: look at the end of the last one with this one.
    const text = tail + chunk.toString('latin1');
    tail = text.slice(-64);
    if (!status.test(text)) return;
    own = split(Buffer.concat(chunks).toString('utf8'), status)?.own;
    if (own) timer = setTimeout(() => limit.abort(), STATE_READ_LIMIT_MS);
  };
  const signal = opts.signal ? AbortSignal.any([opts.signal, limit.signal]) : limit.signal;
  try {
    const result = await manager.shell(serial, line, { ...opts, signal, onChunk });
    const parts = result.exitCode === null ? undefined : split(result.output, status);
    if (parts) return { own: parts.own, state: parts.rest };
    if (own) return { own, state: undefined };
    return { raw: result };
  } catch (e) {
    // Once the action answered, whatever ends the line (this limit, the command's deadline, a link
    // that dropped during the dumps) ends only the state read; the caller's own cancel still wins.
    if (own && !opts.signal?.aborted) return { own, state: undefined };
    throw e;
  } finally {
    clearTimeout(timer);
  }
}
