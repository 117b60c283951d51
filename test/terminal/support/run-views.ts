/**
 * The three ways a terminal's output is read, for checking what they show of an agent's runs: the
 * raw stream a viewer replays (terminal.observe raw, the bytes the Terminals page writes into its
 * scrollback), the model's text (terminal.observe), and the screen (terminal.snapshot).
 */
import type { TerminalLab } from './terminal-lab';

/** Anything of a terminal.run's framing: its markers, or the printf calls that print them. */
export const FRAMING = /7770;|__tg_|printf '(?:\\033|%s%s)/;

export interface RunViews {
  raw: string;
  text: string;
  screen: string;
}

/** What the terminal printed from `cursor` on, read raw and as text, and its screen now. */
export async function runViews(lab: TerminalLab, id: string, cursor: number): Promise<RunViews> {
  const raw = await lab.call('terminal.observe', { id, cursor, raw: true, maxBytes: 65_536 });
  const text = await lab.call('terminal.observe', { id, cursor, maxBytes: 65_536 });
  const screen = await lab.call('terminal.snapshot', { id });
  return {
    raw: raw.data.text as string,
    text: text.data.text as string,
    screen: (screen.data.lines as string[]).join('\n'),
  };
}

/** Where the terminal's output ends now: a cursor to read the next runs from. */
export async function outputEnd(lab: TerminalLab, id: string): Promise<number> {
  for (;;) {
    const r = await lab.call('terminal.observe', { id, maxBytes: 65_536 });
    if ((r.data.more as number) === 0) return r.data.cursor as number;
  }
}
