/**
 * The Terminals page's view of the terminal family: every open terminal with who opened it and its
 * state, the newest output for a new viewer, output streamed as `terminal-output` events (batched,
 * each batch at most 256 KB: a flood skips ahead and the page replays), and take-control. The
 * person's keystrokes do not come through here: they are terminal.write calls through the pipeline.
 */
import type { HostEvent, TerminalView } from '../../shared/contract';
import type { Terminal, TerminalManager } from '../terminal';
import { completeUtf8Length } from '../terminal/terminal-text';

const REPLAY_BYTES = 256 * 1024;
const BATCH_MS = 30;
const BATCH_MAX = 256 * 1024;
/** The longest command the list of runs shows whole (the scrollback shows it all). */
const COMMAND_SHOWN = 200;

export interface TerminalSurface {
  list(): TerminalView[];
  screen(
    id: string,
  ): { data: string; from: number; to: number; runs: Array<{ offset: number; callId: string }> } | undefined;
  control(id: string, on: boolean): { ok: boolean; message: string };
  /** Whether the person holds the keyboard of this terminal. */
  personControls(id: string): boolean;
  dispose(): void;
}

export function terminalView(t: Terminal): TerminalView {
  const i = t.info;
  return {
    id: i.id,
    title: i.title,
    backend: i.backend,
    owner: i.owner === '@person' ? 'you' : i.owner,
    openedBy: i.openedBy,
    where: i.where,
    createdAt: i.createdAt,
    lastActivity: t.lastActivity,
    state: t.state,
    ...(t.exited ? { exitCode: t.exited.exitCode } : {}),
    cols: t.cols,
    rows: t.rows,
    controller: t.controller,
    ...(i.workspace ? { workspace: i.workspace } : {}),
    ...(i.rootfs ? { rootfs: i.rootfs } : {}),
    ...(i.network !== undefined ? { network: i.network } : {}),
    runs: t.runs.map((r) => ({
      callId: r.callId,
      command: r.command.length > COMMAND_SHOWN ? `${r.command.slice(0, COMMAND_SHOWN - 1)}…` : r.command,
      startedAt: r.startedAt,
      offset: r.offset,
      ...(r.endedAt !== undefined ? { endedAt: r.endedAt } : {}),
      ...(r.exitCode !== undefined ? { exitCode: r.exitCode } : {}),
    })),
  };
}

/**
 * The runs whose line starts in [from, to): a run is recorded before its line is typed, so it is known by the time its
 * bytes are sent.
 */
function runMarks(t: Terminal | undefined, from: number, to: number): Array<{ offset: number; callId: string }> {
  return (t?.runs ?? [])
    .filter((r) => r.offset >= from && r.offset < to)
    .map((r) => ({ offset: r.offset, callId: r.callId }));
}

interface Pending {
  /** Offset of the first byte not yet sent. */
  sent: number;
  chunks: Buffer[];
  bytes: number;
  timer?: ReturnType<typeof setTimeout>;
}

export function createTerminalSurface(manager: TerminalManager, emit: (e: HostEvent) => void): TerminalSurface {
  const pending = new Map<string, Pending>();
  let changeTimer: ReturnType<typeof setTimeout> | undefined;

  const flush = (id: string) => {
    const p = pending.get(id);
    if (!p) return;
    p.timer = undefined;
    let data = Buffer.concat(p.chunks);
    let from = p.sent;
    if (data.length > BATCH_MAX) {
      from += data.length - BATCH_MAX;
      data = data.subarray(data.length - BATCH_MAX);
    }
    const whole = completeUtf8Length(data);
    const carry = data.subarray(whole);
    p.chunks = carry.length ? [Buffer.from(carry)] : [];
    p.bytes = carry.length;
    p.sent = from + whole;
    if (whole > 0)
      emit({
        type: 'terminal-output',
        id,
        from,
        to: from + whole,
        data: data.subarray(0, whole).toString('utf8'),
        runs: runMarks(manager.peek(id), from, from + whole),
      });
  };

  const outputs = manager.onOutput(({ id, data, from }) => {
    let p = pending.get(id);
    if (!p) {
      p = { sent: from, chunks: [], bytes: 0 };
      pending.set(id, p);
    }
    p.chunks.push(data);
    p.bytes += data.length;
    p.timer ??= setTimeout(() => flush(id), BATCH_MS);
  });
  const changes = manager.onChange((c) => {
    if (c.type === 'closed') {
      clearTimeout(pending.get(c.id)?.timer);
      pending.delete(c.id);
    }
    // A run's start and end, a state change: one list refresh for a burst of them.
    changeTimer ??= setTimeout(() => {
      changeTimer = undefined;
      emit({ type: 'terminals-changed' });
    }, 50);
  });

  return {
    list: () => manager.list().map(terminalView),
    screen(id) {
      const t = manager.peek(id);
      if (!t) return undefined;
      // Replay up to what has already been streamed, so the events that follow continue it exactly.
      const end = pending.get(id)?.sent ?? t.log.end;
      const read = t.log.read(
        Math.max(t.log.start, end - REPLAY_BYTES),
        end - Math.max(t.log.start, end - REPLAY_BYTES),
      );
      const whole = completeUtf8Length(read.data);
      return {
        data: read.data.subarray(0, whole).toString('utf8'),
        from: read.from,
        to: read.from + whole,
        runs: runMarks(t, read.from, read.from + whole),
      };
    },
    control(id, on) {
      const t = manager.peek(id);
      if (!t) return { ok: false, message: 'This terminal is closed.' };
      t.setController(on ? 'person' : 'agent');
      return {
        ok: true,
        message: on
          ? 'You have the keyboard; the agent waits until you hand it back.'
          : 'The agent may use the terminal again.',
      };
    },
    personControls: (id) => manager.peek(id)?.controller === 'person',
    dispose() {
      outputs.dispose();
      changes.dispose();
      clearTimeout(changeTimer);
      for (const p of pending.values()) clearTimeout(p.timer);
      pending.clear();
    },
  };
}
