/**
 * One terminal, live: xterm.js replays the newest output, then writes every `terminal-output` event
 * that continues it (terminal-stream.ts). It is read-only until the person takes control; then
 * their keystrokes go to the host as terminalInput (terminal.write through the pipeline, traced as
 * theirs). Lines where the agent typed a terminal.run are marked in the scrollback.
 */
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef } from 'react';
import type { TerminalView } from '../../../../shared/contract';
import { useApi } from '../../state/api-context';
import { nextStep, runsWithin } from './terminal-stream';

export function TerminalScreen(props: { terminal: TerminalView }): React.JSX.Element {
  const { terminal } = props;
  const api = useApi();
  const host = useRef<HTMLDivElement>(null);
  const xterm = useRef<Terminal | undefined>(undefined);
  const controlled = useRef(terminal.controller === 'person');
  const runOffsets = useRef<number[]>([]);
  // The size it opens with; later sizes are applied by the effect below, without a new xterm.
  const initialSize = useRef({ cols: terminal.cols, rows: terminal.rows });
  controlled.current = terminal.controller === 'person';
  runOffsets.current = terminal.runs.map((r) => r.offset);

  useEffect(() => {
    if (!host.current) return;
    const term = new Terminal({
      ...initialSize.current,
      scrollback: 2000,
      disableStdin: true,
      convertEol: false,
      fontSize: 13,
      allowProposedApi: true,
    });
    xterm.current = term;
    term.open(host.current);
    let at = 0;
    let live = true;
    let resyncing = false;
    const marked = new Set<number>();
    const mark = (from: number, to: number) => {
      for (const offset of runsWithin(runOffsets.current, from, to)) {
        if (marked.has(offset)) continue;
        marked.add(offset);
        const marker = term.registerMarker(0);
        if (marker) term.registerDecoration({ marker, overviewRulerOptions: { color: '#2f6fed' } });
      }
    };
    const replay = async () => {
      resyncing = true;
      const screen = await api.terminalScreen({ id: terminal.id });
      if (!live) return;
      term.reset();
      term.write(screen.data, () => mark(screen.from, screen.to));
      at = screen.to;
      resyncing = false;
    };
    const off = api.onEvent((e) => {
      if (e.type !== 'terminal-output' || e.id !== terminal.id || resyncing) return;
      const step = nextStep(at, e.from, e.to, e.data);
      if (step.kind === 'resync') void replay();
      else if (step.kind === 'write') {
        const from = at;
        at = step.to;
        term.write(step.text, () => mark(from, step.to));
      }
    });
    const input = term.onData((data) => {
      if (controlled.current) void api.terminalInput({ id: terminal.id, data });
    });
    void replay();
    return () => {
      live = false;
      off();
      input.dispose();
      term.dispose();
      xterm.current = undefined;
    };
  }, [api, terminal.id]);

  useEffect(() => {
    const term = xterm.current;
    if (!term) return;
    if (term.cols !== terminal.cols || term.rows !== terminal.rows) term.resize(terminal.cols, terminal.rows);
    term.options.disableStdin = terminal.controller !== 'person';
    if (terminal.controller === 'person') term.focus();
  }, [terminal.cols, terminal.rows, terminal.controller]);

  return (
    <div
      className={`terminal-screen${terminal.controller === 'person' ? ' in-control' : ''}`}
      ref={host}
      role="region"
      aria-label={`Terminal ${terminal.title}${terminal.controller === 'person' ? ', you are typing' : ', read-only'}`}
      data-testid="terminal-screen"
    />
  );
}
