/**
 * Finds a terminal's processes on this machine through /proc: every process in the shell's session,
 * every descendant of the process the terminal started, and every process whose environment carries
 * the terminal's marker (what a daemon that left the session with setsid still has). Linux only; on
 * other systems only the direct child is known.
 */
import { readFileSync, readdirSync } from 'node:fs';

export interface ProcStat {
  pid: number;
  comm: string;
  /** R running, S sleeping, D waiting on a disk, Z zombie, T stopped… */
  state: string;
  ppid: number;
  pgrp: number;
  session: number;
  /** Foreground process group of the process's controlling terminal (-1 without one). */
  tpgid: number;
}

export function readStat(pid: number): ProcStat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // comm is in parentheses and may itself contain spaces and parentheses: cut at the last ')'.
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < 0) return undefined;
  const fields = text.slice(close + 2).split(' ');
  const rest = fields.map((f) => Number(f));
  return {
    pid,
    comm: text.slice(open + 1, close),
    state: fields[0] ?? '',
    ppid: rest[1] ?? 0,
    pgrp: rest[2] ?? 0,
    session: rest[3] ?? 0,
    tpgid: rest[5] ?? -1,
  };
}

/** The kernel function a process sleeps in (/proc/PID/wchan), or undefined when unreadable. */
export function readWchan(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/wchan`, 'latin1');
  } catch {
    return undefined;
  }
}

function allPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .map(Number);
  } catch {
    return [];
  }
}

function hasMarker(pid: number, marker: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`TOOLGATE_TERMINAL=${marker}`);
  } catch {
    return false;
  }
}

/** The pids of a terminal's processes: in `root`'s session, below `root`, or carrying `marker`. */
export function terminalProcesses(root: number | undefined, marker: string): number[] {
  const stats = allPids()
    .map(readStat)
    .filter((s): s is ProcStat => s !== undefined);
  const found = new Set<number>();
  if (root !== undefined) {
    const children = new Map<number, number[]>();
    for (const s of stats) {
      if (!children.has(s.ppid)) children.set(s.ppid, []);
      children.get(s.ppid)!.push(s.pid);
      if (s.session === root || s.pid === root) found.add(s.pid);
    }
    const stack = [root];
    while (stack.length > 0) {
      for (const child of children.get(stack.pop()!) ?? []) {
        if (!found.has(child)) {
          found.add(child);
          stack.push(child);
        }
      }
      if (found.size > 100_000) break;
    }
  }
  for (const s of stats) if (!found.has(s.pid) && hasMarker(s.pid, marker)) found.add(s.pid);
  found.delete(process.pid);
  return [...found];
}

/** Signals every pid, ignoring the ones already gone. */
export function signalAll(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

/**
 * Ends a terminal's processes: HUP first (what closing a terminal window sends), then KILL for what
 * is left after `graceMs`, until none remains or `giveUpMs` passed.
 */
export async function endProcesses(
  root: number | undefined,
  marker: string,
  graceMs = 300,
  giveUpMs = 5_000,
): Promise<number[]> {
  const started = Date.now();
  signalAll(terminalProcesses(root, marker), 'SIGHUP');
  await new Promise((r) => setTimeout(r, graceMs));
  let left = terminalProcesses(root, marker);
  while (left.length > 0 && Date.now() - started < giveUpMs) {
    signalAll(left, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 50));
    left = terminalProcesses(root, marker).filter(isAlive);
  }
  return left;
}

function isAlive(pid: number): boolean {
  // A zombie waits for its parent to reap it; it runs nothing.
  const stat = (() => {
    try {
      return readFileSync(`/proc/${pid}/stat`, 'latin1');
    } catch {
      return undefined;
    }
  })();
  if (!stat) return false;
  return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}
