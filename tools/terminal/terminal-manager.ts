/**
 * Every open terminal of the host: opened within the caps (per owner and in all), found only by
 * their owner or the person, closed on request, after their idle time, when their backend is
 * switched off, and all of them when the host stops, each with every process it started. Changes and
 * output are announced for the UI.
 */
import { randomBytes } from 'node:crypto';
import { type Disposable, Emitter } from '../core/disposable';
import { ToolCallError } from '../core/result';
import type { BackendKind, TerminalProcess } from './backends/types';
import { DEFAULT_LIMITS, type TerminalLimits } from './limits';
import { PERSON } from './owner';
import { Terminal, type TerminalInfo } from './terminal';

export interface OpenRequest {
  kind: BackendKind;
  backend: string;
  owner: string;
  openedBy: string;
  title?: string;
  cols: number;
  rows: number;
  workspace?: string;
  rootfs?: string;
}

export interface Spawned {
  process: TerminalProcess;
  rootfs?: string;
  network?: boolean;
}

export type Spawner = (request: OpenRequest, marker: string) => Promise<Spawned>;

export type TerminalChange = { type: 'opened' | 'closed' | 'changed'; id: string };

export interface TerminalOutput {
  id: string;
  data: Buffer;
  /** Offset of the first byte in the terminal's log. */
  from: number;
}

export class TerminalManager {
  private readonly open = new Map<string, Terminal>();
  private readonly changes = new Emitter<TerminalChange>();
  private readonly output = new Emitter<TerminalOutput>();
  private readonly sweeper: ReturnType<typeof setInterval>;
  private readonly limits: TerminalLimits;
  private opening = 0;
  private stopped = false;

  constructor(
    private readonly spawn: Spawner,
    limits: Partial<TerminalLimits> = {},
    private readonly now: () => number = Date.now,
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.sweeper = setInterval(() => void this.sweep(), Math.max(250, Math.min(this.limits.idleMs / 4, 30_000)));
    this.sweeper.unref();
  }

  async openTerminal(request: OpenRequest): Promise<Terminal> {
    if (this.stopped) throw new ToolCallError('EXECUTION_FAILED', 'Toolgate is shutting down.');
    const mine = this.list(request.owner).length;
    if (mine >= this.limits.maxPerOwner)
      throw new ToolCallError(
        'EXECUTION_FAILED',
        `You already have ${mine} terminals open, the most one client may hold.`,
        {
          hint: `Close one you no longer need (terminal.close), or reuse one: ${this.ids(request.owner)}.`,
          data: { limit: this.limits.maxPerOwner, slug: 'terminal-cap-owner' },
        },
      );
    if (this.open.size + this.opening >= this.limits.maxTotal)
      throw new ToolCallError(
        'EXECUTION_FAILED',
        `${this.open.size} terminals are open on this host, the most it keeps.`,
        {
          hint: 'Close a terminal you no longer need (terminal.close) and retry.',
          data: { limit: this.limits.maxTotal, slug: 'terminal-cap-total' },
        },
      );
    this.opening++;
    let spawned: Spawned;
    const id = `t${randomBytes(6).toString('hex')}`;
    const marker = `${id}-${randomBytes(6).toString('hex')}`;
    try {
      spawned = await this.spawn(request, marker);
    } finally {
      this.opening--;
    }
    const info: TerminalInfo = {
      id,
      title: request.title ?? `${request.backend} terminal`,
      backend: request.backend,
      kind: request.kind,
      owner: request.owner,
      openedBy: request.openedBy,
      createdAt: this.now(),
      ...(request.workspace ? { workspace: request.workspace } : {}),
      ...(spawned.rootfs ? { rootfs: spawned.rootfs } : {}),
      ...(spawned.network !== undefined ? { network: spawned.network } : {}),
      where: spawned.process.describe,
    };
    const terminal = new Terminal(info, spawned.process, this.limits, request.cols, request.rows, this.now);
    terminal.onOutput((data) => this.output.emit({ id, data, from: terminal.log.end - data.length }));
    terminal.onChange(() => this.changes.emit({ type: 'changed', id }));
    this.open.set(id, terminal);
    this.changes.emit({ type: 'opened', id });
    if (this.stopped) await this.closeTerminal(id);
    return terminal;
  }

  /**
   * The terminal `id` if `owner` may reach it (its owner, or the person); NOT_FOUND otherwise, as for
   * an id that never existed.
   */
  get(id: string, owner: string): Terminal {
    const t = this.open.get(id);
    if (t && (owner === PERSON || t.info.owner === owner)) {
      t.touch();
      return t;
    }
    throw new ToolCallError('NOT_FOUND', `There is no open terminal '${id}' of yours.`, {
      hint:
        `Terminal ids come from terminal.create; it may have been closed or closed itself when idle. Yours ` +
        `open now: ${this.ids(owner)}.`,
      data: { fields: ['id'] },
    });
  }

  /** For the UI: any terminal, without counting as activity. */
  peek(id: string): Terminal | undefined {
    return this.open.get(id);
  }

  list(owner?: string): Terminal[] {
    const all = [...this.open.values()];
    return owner === undefined || owner === PERSON ? all : all.filter((t) => t.info.owner === owner);
  }

  private ids(owner: string): string {
    const ids = this.list(owner).map((t) => t.info.id);
    return ids.length ? ids.join(', ') : 'none';
  }

  async closeTerminal(id: string): Promise<void> {
    const t = this.open.get(id);
    if (!t) return;
    this.open.delete(id);
    await t.close();
    this.changes.emit({ type: 'closed', id });
  }

  /** Closes every terminal that matches (a backend switched off). */
  async closeWhere(match: (t: Terminal) => boolean): Promise<number> {
    const ids = [...this.open.values()].filter(match).map((t) => t.info.id);
    await Promise.all(ids.map((id) => this.closeTerminal(id)));
    return ids.length;
  }

  onChange(listener: (change: TerminalChange) => void): Disposable {
    return this.changes.on(listener);
  }

  onOutput(listener: (output: TerminalOutput) => void): Disposable {
    return this.output.on(listener);
  }

  private async sweep(): Promise<void> {
    const cutoff = this.now() - this.limits.idleMs;
    const idle = [...this.open.values()].filter((t) => t.lastActivity < cutoff && !t.running);
    await Promise.all(idle.map((t) => this.closeTerminal(t.info.id)));
  }

  /** Closes every terminal and stops the idle sweep (the host is stopping). */
  async closeAll(): Promise<void> {
    this.stopped = true;
    clearInterval(this.sweeper);
    await Promise.all([...this.open.keys()].map((id) => this.closeTerminal(id)));
  }
}
