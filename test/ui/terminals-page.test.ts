/**
 * Rule: the Terminals page shows every open terminal live in xterm.js (who opened it, on which
 * backend, its state), read-only: keys typed on it go nowhere until the person takes control. Then
 * the agent waits, and the person's keys reach the shell as terminal.write calls traced as the
 * person's (requester ui); handing back lets the agent go on. The agent's runs show in the
 * scrollback as the commands it ran, never their framing, each marked as the agent's with a link to
 * its trace, and are listed by command. A viewer keeps its copy contiguous: output it already has
 * is trimmed, a gap makes it replay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type StreamOutput,
  ViewerStream,
  cutAtRuns,
  isTerminalReply,
  nextStep,
  runsWithin,
} from '../../renderer/src/pages/terminals/terminal-stream';
import { FRAMING } from '../terminal/support/run-views';
import { installBusyboxRootfs } from '../terminal/support/terminal-lab';
import { eventually } from './support/eventually';
import { type UiHarness, startUiHarness, textOf } from './support/ui-harness';

describe('a viewer’s copy of the output', () => {
  it('takes output that continues it, trims what it already has, skips what is old and replays after a gap', () => {
    expect(nextStep(10, 10, 15, 'hello')).toEqual({ kind: 'write', text: 'hello', to: 15 });
    expect(nextStep(12, 10, 15, 'hello')).toEqual({ kind: 'write', text: 'llo', to: 15 });
    expect(nextStep(13, 10, 15, 'hé¡')).toEqual({ kind: 'write', text: '¡', to: 15 });
    expect(nextStep(20, 10, 15, 'hello')).toEqual({ kind: 'skip' });
    expect(nextStep(10, 11, 15, 'ello')).toEqual({ kind: 'resync' });
  });

  it('keeps output that streams in while a replay is on its way, even when nothing follows it', async () => {
    const out = (from: number, data: string): StreamOutput => ({ data, from, to: from + data.length, runs: [] });
    let answer: (screen: StreamOutput) => void = () => undefined;
    let shown = '';
    const stream = new ViewerStream({
      fetch: () => new Promise((resolve) => (answer = resolve)),
      reset: () => (shown = ''),
      write: (text) => (shown += text),
      alive: () => true,
    });
    const replayed = stream.replay();
    // The host read the screen up to byte 6, then streamed 4..12 and 12..20 before the answer came.
    stream.take(out(4, '$ echo'));
    stream.take(out(10, ' live-42\n'));
    answer(out(0, 'hello '));
    await replayed;
    expect(shown).toBe('hello echo live-42\n');
    // A gap with nothing after it is fetched again rather than waited out.
    let screens = 0;
    const gapped = new ViewerStream({
      fetch: async () => (++screens === 1 ? out(0, 'ab') : out(0, 'abcdef')),
      reset: () => (shown = ''),
      write: (text) => (shown += text),
      alive: () => true,
    });
    await gapped.replay();
    gapped.take(out(4, 'ef'));
    await eventually(() => expect(shown).toBe('abcdef'), 2_000, 10);
  });

  it('tells the terminal’s own answers to queries from keys, so the page never types them', () => {
    for (const reply of [
      '\u001b[12;1R',
      '\u001b[?1;2c',
      '\u001b[>0;276;0c',
      '\u001b[0n',
      '\u001b]11;rgb:0000/0000/0000\u0007',
    ])
      expect([reply, isTerminalReply(reply)]).toEqual([reply, true]);
    for (const key of ['a', '\r', '\u001b[A', '\u001b[15~', '\u001b', 'echo \u001b[6n'])
      expect([key, isTerminalReply(key)]).toEqual([key, false]);
  });

  it('marks the runs whose line falls in what it writes, cutting the output where each begins', () => {
    expect(runsWithin([30, 5, 12, 99], 10, 40)).toEqual([12, 30]);
    expect(cutAtRuns('ab$ ls\r\nx$ pwd', 100, [102, 109, 500])).toEqual([
      { text: 'ab', markAfter: 102 },
      { text: '$ ls\r\nx', markAfter: 109 },
      { text: '$ pwd' },
    ]);
  });
});

describe('the Terminals page', () => {
  let h: UiHarness;
  let id: string;
  const screenText = () => h.page.getByTestId('terminal-screen').locator('.xterm-rows').textContent();
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await h.mcp.callTool({ name, arguments: args });
    const callId = ((r._meta ?? {}) as Record<string, string>)['toolgate/callId'];
    return { ok: !r.isError, text: textOf(r), data: (r.structuredContent ?? {}) as Record<string, unknown>, callId };
  };

  beforeAll(async () => {
    h = await startUiHarness();
    installBusyboxRootfs(h.dataDir);
    const created = await call('terminal.create', { title: 'build box', cols: 80, rows: 16 });
    expect(created.ok, created.text).toBe(true);
    id = created.data.id as string;
    expect((await call('terminal.run', { id, command: 'echo hello-from-agent' })).data.output).toBe('hello-from-agent');
  }, 180_000);
  afterAll(async () => h?.close());

  it('lists the terminal with its backend, who opened it and its state, and shows its screen', async () => {
    await h.open('terminals');
    const item = h.page.getByTestId('terminal-item');
    await item.waitFor();
    const text = (await item.textContent()) ?? '';
    expect(text).toContain('build box');
    expect(text).toContain('running');
    expect(text).toContain('Sandbox · opened by default');
    await h.page.getByText('ui-e2e 1.0.0').waitFor();
    await eventually(async () => expect(await screenText()).toContain('hello-from-agent'), 15_000, 100);
    expect(await h.page.getByText('Read-only', { exact: true }).count()).toBe(1);
  });

  it('shows the agent’s output live and links its runs to their traces', async () => {
    const r = await call('terminal.run', { id, command: 'echo live-$((40 + 2))' });
    await eventually(async () => expect(await screenText()).toContain('live-42'), 15_000, 100);
    expect(r.callId).toMatch(/\S/);
    const link = h.page.getByTestId('terminal-runs').locator(`a[href="#/traces/${r.callId}"]`);
    await link.waitFor();
    expect(await link.locator('xpath=..').textContent()).toContain('exit 0');
    // A fresh viewer replays the scrollback and marks the line of each run there.
    await h.open(`terminals/${id}`);
    await eventually(async () => expect(await screenText()).toContain('live-42'), 15_000, 100);
    await h.page.locator(`[data-run="${r.callId}"]`).waitFor({ state: 'attached' });
    expect(await h.page.locator(`[data-run="${r.callId}"]`).getAttribute('title')).toBe(
      `terminal.run by the agent (call ${r.callId}): open its trace`,
    );
    await eventually(async () => expect(await screenText()).toContain('live-42'), 15_000, 100);
  });

  it('shows the agent’s commands in the scrollback as run, never their framing, marked, linked to traces', async () => {
    const listed = await call('terminal.run', { id, command: 'ls / | wc -l; echo "agent ran: $((6 * 7))"' });
    expect(listed.data.output).toBe('8\nagent ran: 42');
    await eventually(async () => expect(await screenText()).toContain('agent ran: 42'), 15_000, 100);
    const screen = (await screenText()) ?? '';
    expect(screen).toContain('# echo hello-from-agent');
    expect(screen).toContain('# ls / | wc -l; echo "agent ran: $((6 * 7))"');
    expect(FRAMING.test(screen)).toBe(false);
    const runs = h.page.getByTestId('terminal-runs');
    await runs.getByText('ls / | wc -l; echo "agent ran: $((6 * 7))"').waitFor();
    await h.shot('terminals-agent-runs');
    const mark = h.page.locator(`[data-run="${listed.callId}"]`);
    await mark.waitFor({ state: 'attached' });
    expect(await mark.getAttribute('role')).toBe('link');
    await mark.click();
    await eventually(async () =>
      expect(await h.page.evaluate(() => window.location.hash)).toBe(`#/traces/${listed.callId}`),
    );
    await h.open(`terminals/${id}`);
    await eventually(async () => expect(await screenText()).toContain('agent ran: 42'), 15_000, 100);
  });

  it('sends nothing while read-only, even when a person types on it', async () => {
    await h.page.getByTestId('terminal-screen').click();
    await h.page.keyboard.type('echo should-not-arrive');
    await h.page.keyboard.press('Enter');
    await new Promise((r) => setTimeout(r, 500));
    expect(await screenText()).not.toContain('should-not-arrive');
    expect(
      (await h.host.api.listSpans({ toolId: 'terminal.write', limit: 10 })).filter((s) => s.requesterKind === 'ui'),
    ).toEqual([]);
  });

  it('lets the person take control: the agent waits, the person’s keys run, traced as the person’s', async () => {
    await h.page.getByRole('button', { name: 'Take control' }).click();
    await h.page.getByText('You are typing', { exact: true }).waitFor();
    const refused = await call('terminal.run', { id, command: 'echo agent' });
    expect(refused.ok).toBe(false);
    expect(refused.text).toContain('A person has taken control');
    await h.page.keyboard.type('echo typed-by-$((6 * 7))');
    await h.page.keyboard.press('Enter');
    await eventually(async () => expect(await screenText()).toContain('typed-by-42'), 15_000, 100);
    const spans = (await h.host.api.listSpans({ toolId: 'terminal.write', limit: 100 })).filter(
      (s) => s.requesterKind === 'ui',
    );
    expect(spans.length).toBeGreaterThan(0);
    expect(new Set(spans.map((s) => s.sessionId))).toEqual(new Set(['ui']));
    const seen = await call('terminal.wait', { id, pattern: 'typed-by-42', cursor: 0 });
    expect(seen.data.matched).toBe(true);
    await h.shot('terminals-page');
    await h.page.getByRole('button', { name: 'Hand back to the agent' }).click();
    await h.page.getByText('Read-only', { exact: true }).waitFor();
    expect((await call('terminal.run', { id, command: 'echo agent-again' })).data.output).toBe('agent-again');
    expect(h.problems).toEqual([]);
  });
});
