/**
 * One terminal, live: xterm.js replays the newest output, then writes every `terminal-output` event
 * that continues it (terminal-stream.ts), and replays again after the event stream was cut. It is
 * read-only until the person takes control; then their keystrokes go to the host as terminalInput
 * (terminal.write through the pipeline, traced as theirs), in order. The agent's terminal.run
 * commands show as the commands alone (the host removes their framing), each marked in the
 * scrollback with a link to its trace.
 */
import { Terminal } from '@xterm/xterm';
import '@xterm/xterm/css/xterm.css';
import { useEffect, useRef } from 'react';
import type { TerminalView } from '../../../../shared/contract';
import { navigate } from '../../router/hash-route';
import { useApi, useConnection } from '../../state/api-context';
import { ViewerStream, cutAtRuns, isTerminalReply } from './terminal-stream';

export function TerminalScreen(props: { terminal: TerminalView }): React.JSX.Element {
  const { terminal } = props;
  const api = useApi();
  const host = useRef<HTMLDivElement>(null);
  const xterm = useRef<Terminal | undefined>(undefined);
  /** Replays the terminal; after the event stream comes back from a gap, what it missed is fetched. */
  const replayRef = useRef<(() => void) | undefined>(undefined);
  const { state: connection } = useConnection();
  const controlled = useRef(terminal.controller === 'person');
  /** Run offsets and call ids, from the stream (each event and replay names the runs in its bytes). */
  const runs = useRef(new Map<number, string>());
  // The size it opens with; later sizes are applied by the effect below, without a new xterm.
  const initialSize = useRef({ cols: terminal.cols, rows: terminal.rows });
  controlled.current = terminal.controller === 'person';

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
    let live = true;
    const marked = new Set<number>();
    // The line where the agent's terminal.run shows its command: tinted, with a blue bar in the
    // margin before it that links to the call's trace.
    const mark = (offset: number) => {
      if (marked.has(offset)) return;
      marked.add(offset);
      const marker = term.registerMarker(0);
      if (!marker) return;
      term
        .registerDecoration({ marker, x: 0, width: term.cols })
        ?.onRender((el) => el.classList.add('terminal-run-line'));
      const decoration = term.registerDecoration({ marker, x: 0, width: 1 });
      decoration?.onRender((el) => {
        const callId = runs.current.get(offset) ?? '';
        el.classList.add('terminal-run-mark');
        el.title = `terminal.run by the agent (call ${callId || '?'}): open its trace`;
        el.dataset.run = callId;
        el.setAttribute('role', 'link');
        el.setAttribute('aria-label', `The agent’s command: open the trace of call ${callId}`);
        el.tabIndex = 0;
        el.onclick = () => {
          if (callId) navigate('traces', callId);
        };
        el.onkeydown = (e) => {
          if (e.key === 'Enter' && callId) navigate('traces', callId);
        };
      });
    };
    const write = (text: string, from: number, marks: ReadonlyArray<{ offset: number; callId: string }>) => {
      for (const m of marks) runs.current.set(m.offset, m.callId);
      for (const piece of cutAtRuns(text, from, [...runs.current.keys()])) {
        const after = piece.markAfter;
        term.write(piece.text, after === undefined ? undefined : () => mark(after));
      }
    };
    const stream = new ViewerStream({
      fetch: () => api.terminalScreen({ id: terminal.id }),
      reset: () => {
        term.reset();
        marked.clear();
      },
      write,
      alive: () => live,
    });
    replayRef.current = () => void stream.replay();
    const off = api.onEvent((e) => {
      if (e.type === 'terminal-output' && e.id === terminal.id) stream.take(e);
    });
    // Keys go one call at a time, those typed meanwhile together in the next, so they arrive in order.
    let typed = '';
    let sending = false;
    const send = async () => {
      if (sending || typed === '') return;
      sending = true;
      const data = typed.slice(0, 16_384);
      typed = typed.slice(data.length);
      await api.terminalInput({ id: terminal.id, data }).catch(() => undefined);
      sending = false;
      if (live) void send();
    };
    const input = term.onData((data) => {
      if (!controlled.current || isTerminalReply(data)) return;
      typed += data;
      void send();
    });
    void stream.replay();
    return () => {
      live = false;
      replayRef.current = undefined;
      off();
      input.dispose();
      term.dispose();
      xterm.current = undefined;
    };
  }, [api, terminal.id]);

  useEffect(() => {
    if (connection.status === 'open' && connection.reconnected) replayRef.current?.();
  }, [connection]);

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
