/**
 * Rule guarded: browser_snapshot sees into iframes (same-origin and cross-site) and open shadow
 * roots, and the refs it prints there work with the action tools like any other ref.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, errorOf, refOf, startHarness } from './harness';

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

describe('iframes', () => {
  let snap: string;
  beforeAll(async () => {
    await h.text('browser_navigate', { url: `${h.base}/frames.html?cross=${encodeURIComponent(h.otherSite)}` });
    // The cross-site frame is attached by a script after load; wait until its content is in the tree.
    for (let i = 0; i < 50 && !/Frame cross/.test(snap ?? ''); i++) snap = await h.text('browser_snapshot');
  });

  it('refuses a ref of a frame that does not exist', async () => {
    expect(errorOf(await h.call('browser_click', { ref: 'f77e2' })).code).toBe('NOT_FOUND');
  });

  it('shows the content of a same-origin and a cross-site iframe, each under its iframe line', () => {
    const lines = snap.split('\n');
    const frames = lines.filter((l) => /^e\d+ iframe/.test(l.trim()) || /iframe "/.test(l));
    expect(frames.length).toBe(2);
    expect(snap).toContain('Frame same');
    expect(snap).toContain('Frame cross');
    expect(snap.match(/f\d+e\d+ button "Press me"/g)?.length).toBe(2);
  });

  it('clicks and types inside both frames through their refs', async () => {
    const sameSection = snap.slice(snap.indexOf('Frame same'));
    const crossSection = snap.slice(snap.indexOf('Frame cross'));
    await h.text('browser_click', { ref: refOf(sameSection, /button "Press me"/) });
    await h.text('browser_input', { ref: refOf(crossSection, /textbox "Frame note"/), text: 'across sites' });
    const after = await h.text('browser_snapshot');
    expect(after).toMatch(/button "Pressed"/);
    expect(after).toMatch(/textbox "Frame note"( focused)? = "across sites"/);
  });
});

describe('shadow DOM', () => {
  let snap: string;
  beforeAll(async () => {
    await h.text('browser_navigate', { url: `${h.base}/shadow-app.html` });
    snap = await h.text('browser_snapshot');
  });

  it('lists controls three shadow roots deep with refs', () => {
    expect(snap).toMatch(/navigation "Main":/);
    expect(snap).toMatch(/checkbox "Done: Buy milk"/);
    expect(snap).toMatch(/switch "Notifications"/);
    expect(snap).toMatch(/combobox "Language" = "English"/);
  });

  it('toggles, types, selects and clicks inside shadow roots', async () => {
    await h.text('browser_toggle', { ref: refOf(snap, /checkbox "Done: Call Alice"/), checked: true });
    await h.text('browser_toggle', { ref: refOf(snap, /checkbox "Dark mode"/), checked: false });
    await h.text('browser_input', { ref: refOf(snap, /textbox "New todo"/), text: 'Pay rent' });
    await h.text('browser_select', { ref: refOf(snap, /combobox "Language"/), values: ['Deutsch'] });
    await h.text('browser_click', { ref: refOf(snap, /clickable "Advanced"/) });
    const after = await h.text('browser_snapshot');
    expect(after).toMatch(/checkbox "Done: Call Alice" checked/);
    expect(after).toMatch(/checkbox "Dark mode"$/m);
    expect(after).toMatch(/textbox "New todo" = "Pay rent"/);
    expect(after).toMatch(/combobox "Language" = "Deutsch"/);
    expect(after).toMatch(/spinbutton "Cache size" = "50"/);
  });

  it('takes a screenshot of one shadow element by ref', async () => {
    const result = await h.call('browser_screenshot', { ref: refOf(snap, /button "Help"/), format: 'png' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const image = result.content.find((c) => c.type === 'image');
    expect(image?.type === 'image' && image.mimeType).toBe('image/png');
    expect(image?.type === 'image' && Buffer.from(image.data, 'base64').subarray(1, 4).toString()).toBe('PNG');
  });
});
