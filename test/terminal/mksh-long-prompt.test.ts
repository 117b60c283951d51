/**
 * Rule: an agent's command shows as the command alone, never the run's framing, even where the
 * shell's line editor scrolls the typed line sideways. mksh (Android's shell) does so when the
 * prompt leaves too little of the row for the line: it draws the line again from a later start,
 * with a scroll mark. Real mksh on a host terminal of 80 columns, with a long prompt and with a
 * prompt that shows a long working directory.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAMING, outputEnd, runViews } from './support/run-views';
import { type TerminalLab, startTerminalLab } from './support/terminal-lab';

const MKSH = '/bin/mksh';

let lab: TerminalLab;
let id: string;

beforeAll(async () => {
  if (!existsSync(MKSH)) throw new Error('These tests run real mksh: apt-get install -y mksh');
  lab = await startTerminalLab({ hostEnabled: true });
  // The host terminal starts the user's shell ($SHELL): mksh here.
  const shell = process.env.SHELL;
  process.env.SHELL = MKSH;
  try {
    id = (await lab.call('terminal.create', { backend: 'host', cols: 80, rows: 24 })).data.id as string;
  } finally {
    if (shell === undefined) delete process.env.SHELL;
    else process.env.SHELL = shell;
  }
  const enter = lab.call('terminal.write', { id, data: '{Enter}' });
  await lab.answerNext('approve_session');
  expect((await enter).ok).toBe(true);
  expect((await lab.call('terminal.snapshot', { id })).data.foreground).toBe('mksh');
}, 60_000);
afterAll(async () => lab?.dispose());

async function framedRuns(prompt: string, commands: string[]) {
  expect((await lab.call('terminal.run', { id, command: `PS1='${prompt}'` })).data.exitCode).toBe(0);
  const from = await outputEnd(lab, id);
  const outputs: string[] = [];
  for (const command of commands) {
    const r = await lab.call('terminal.run', { id, command });
    expect(r.ok, r.text).toBe(true);
    outputs.push(r.data.output as string);
  }
  const views = await runViews(lab, id, from);
  // mksh blanks the row after its prompt when the line is cleared first; the text keeps those blanks.
  return { outputs, views, text: views.text.replace(/ +\n/g, '\n') };
}

describe('mksh scrolling a typed line sideways', () => {
  it.each([40, 55, 65, 72])('shows the command alone after a %i-character prompt on 80 columns', async (width) => {
    const prompt = `${'p'.repeat(width - 2)}$ `;
    const { outputs, views, text } = await framedRuns(prompt, ['echo scrolled', 'echo "$((6 * 7))"']);
    expect(outputs).toEqual(['scrolled', '42']);
    for (const [name, view] of Object.entries(views)) expect([name, FRAMING.test(view)]).toEqual([name, false]);
    expect(text).toContain('echo scrolled\nscrolled\n');
    expect(text).toContain('echo "$((6 * 7))"\n42\n');
  });

  it('shows the command alone when the prompt shows a long working directory', async () => {
    const deep = join(lab.workspace, 'a-rather-long-folder-name', 'and-another-long-one-below-it', 'deeper-still');
    mkdirSync(deep, { recursive: true });
    expect((await lab.call('terminal.run', { id, command: `cd '${deep}'` })).data.exitCode).toBe(0);
    const { outputs, views } = await framedRuns('${PWD} $ ', ['pwd', 'echo in-the-deep']);
    expect(outputs).toEqual([deep, 'in-the-deep']);
    for (const [name, view] of Object.entries(views)) expect([name, FRAMING.test(view)]).toEqual([name, false]);
    // The prompt wraps over two rows; the screen shows each command right after it, its output below.
    expect(views.screen).toMatch(/deeper-still \$ pwd *\n/);
    expect(views.screen).toMatch(/deeper-still \$ echo in-the-deep *\nin-the-deep\n/);
  });

  it('runs pipe mode in mksh too, in the same shell', async () => {
    const r = await lab.call('terminal.run', { id, command: 'cd /; echo "$((6 * 7))"', output: 'pipe' });
    expect(r.data).toMatchObject({ output: '42', exitCode: 0, mode: 'pipe' });
    expect((await lab.call('terminal.run', { id, command: 'pwd' })).data.output).toBe('/');
  });
});
