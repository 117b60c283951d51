/**
 * Rule: an approver who is not looking at the Approvals page still learns that a call waits: the
 * tab title carries the count, and in a browser (the headless host's UI) each new request raises a
 * system notification while the tab is in the background, once the person turned alerts on. A
 * request the person can see (tab in front) raises none.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './support/eventually';
import { type UiHarness, startUiHarness } from './support/ui-harness';

/** Records notifications instead of showing them, and lets the test put the tab in the background. */
const INSTRUMENT = `(() => {
  const Real = window.Notification;
  window.__notes = [];
  window.__hidden = false;
  class Recording {
    constructor(title, options) {
      window.__notes.push({ title, body: options && options.body, tag: options && options.tag });
    }
    close() {}
    static get permission() { return Real.permission; }
    static requestPermission() { return Real.requestPermission(); }
  }
  window.Notification = Recording;
  Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => window.__hidden === true });
})()`;

type Note = { title: string; body?: string; tag?: string };

describe('alerts for waiting approvals', () => {
  let h: UiHarness;
  const notes = () => h.page.evaluate(() => (window as unknown as { __notes: Note[] }).__notes);
  const setHidden = (hidden: boolean) =>
    h.page.evaluate((v) => ((window as unknown as { __hidden: boolean }).__hidden = v), hidden);
  const denyAll = async () => {
    for (const a of await h.host.api.pendingApprovals({}))
      await h.host.api.decideApproval({ approvalId: a.approvalId, decision: 'deny', reason: 'test over' });
  };

  beforeAll(async () => {
    h = await startUiHarness({ approvalTimeoutMs: 60_000 });
    // Files that are there, so deleting them asks a person (a missing one is NOT_FOUND before asking).
    for (const f of ['a.txt', 'b.txt', 'c.txt']) writeFileSync(join(h.workspace, f), 'x');
    await h.page.context().grantPermissions(['notifications'], { origin: h.host.address.ui.replace(/\/$/, '') });
    await h.page.addInitScript(INSTRUMENT);
  });
  afterAll(async () => h?.close());

  it('counts the waiting calls in the tab title', async () => {
    await h.open('overview');
    expect(await h.page.title()).toBe('Toolgate');
    const call = h.mcp.callTool({ name: 'delete_file', arguments: { path: 'a.txt' } });
    await eventually(async () => expect(await h.page.title()).toBe('(1) Toolgate'));
    await denyAll();
    await call;
    await eventually(async () => expect(await h.page.title()).toBe('Toolgate'));
  });

  it('notifies of a new request while the tab is in the background, and not while it is in front', async () => {
    await h.open('overview');
    await setHidden(true);
    const hiddenCall = h.mcp.callTool({ name: 'delete_file', arguments: { path: 'b.txt' } });
    await eventually(async () => expect(await notes()).toHaveLength(1));
    const [note] = await notes();
    expect(note?.title).toMatch(/^Approval needed: /);
    expect(note?.body).toContain('HIGH risk');
    expect(note?.body).toContain('delete_file');
    const [waiting] = await h.host.api.pendingApprovals({});
    expect(note?.tag).toBe(waiting?.approvalId);

    await setHidden(false);
    const visibleCall = h.mcp.callTool({ name: 'delete_file', arguments: { path: 'c.txt' } });
    await eventually(async () => expect(await h.page.title()).toBe('(2) Toolgate'));
    expect(await notes()).toHaveLength(1);
    await denyAll();
    await Promise.all([hiddenCall, visibleCall]);
  });

  it('says on the Approvals page that browser alerts are on', async () => {
    await h.open('approvals');
    expect(await h.page.getByTestId('browser-alerts').textContent()).toContain('Browser alerts are on');
  });

  it('offers to turn browser alerts on where the person has not decided yet', async () => {
    const context = await h.browser.newContext();
    const page = await context.newPage();
    await page.goto(h.host.uiLink()); // another browser of the same person: a link of its own
    await page.goto(`${h.host.address.ui}#/approvals`);
    await page.getByRole('button', { name: 'Alert me in this browser' }).waitFor();
    await context.close();
  });
});
