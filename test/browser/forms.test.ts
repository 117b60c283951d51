/**
 * Rule guarded: with refs from browser_snapshot a model can fill a real form in Chromium — text,
 * selects, checkboxes, radios, date/time fields, a picker widget — and every wrong move (stale or
 * malformed ref, wrong tool for the control, bad option, bad date format) is a readable error with
 * the right code, never a hang.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, errorOf, refOf, startHarness } from './harness';

let h: Harness;
let snap: string;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

async function openForm(): Promise<void> {
  await h.text('browser_navigate', { url: `${h.base}/form.html` });
  snap = await h.text('browser_snapshot');
}

describe('refusals', () => {
  beforeAll(openForm);

  it('answers a ref that is in no snapshot with NOT_FOUND and tells the model to snapshot again', async () => {
    const err = errorOf(await h.call('browser_click', { ref: 'e9999' }));
    expect(err.code).toBe('NOT_FOUND');
    expect(err.hint).toMatch(/browser_snapshot/);
  });

  it('answers a malformed ref with INVALID_ARGUMENT', async () => {
    const err = errorOf(await h.call('browser_click', { ref: '#submit' }));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.message).toMatch(/e12/);
  });

  it('refuses typing into a checkbox and names browser_toggle', async () => {
    const err = errorOf(
      await h.call('browser_input', { ref: refOf(snap, /checkbox "Send me the newsletter"/), text: 'yes' }),
    );
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.message).toMatch(/browser_toggle/);
  });

  it('refuses an option the select does not have and lists the ones it has', async () => {
    const err = errorOf(
      await h.call('browser_select', { ref: refOf(snap, /combobox "Country"/), values: ['Atlantis'] }),
    );
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.message).toContain('"Germany" (value "de")');
  });

  it('refuses browser_select on something that is not a select', async () => {
    expect(
      errorOf(await h.call('browser_select', { ref: refOf(snap, /button "Create account"/), values: ['x'] })).code,
    ).toBe('UNSUPPORTED');
  });

  it('refuses to uncheck a radio button and says to check another one', async () => {
    const err = errorOf(await h.call('browser_toggle', { ref: refOf(snap, /radio "Free"/), checked: false }));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.hint).toMatch(/another radio/i);
  });

  it('refuses a date in the wrong format before typing anything', async () => {
    const ref = refOf(snap, /textbox "Birthday"/);
    const err = errorOf(await h.call('browser_date_input', { ref, value: '03/15/1990' }));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.message).toMatch(/YYYY-MM-DD/);
    expect(await h.text('browser_context_summary')).toMatch(/date "Birthday" name=birthday\n/);
  });

  it('refuses a URL without a scheme and suggests one', async () => {
    const err = errorOf(await h.call('browser_navigate', { url: 'example.com/page' }));
    expect(err.code).toBe('INVALID_ARGUMENT');
    expect(err.message).toContain('https://example.com/page');
  });

  it('refuses navigate with both a url and a history move', async () => {
    expect(errorOf(await h.call('browser_navigate', { url: `${h.base}/form.html`, history: 'back' })).code).toBe(
      'INVALID_ARGUMENT',
    );
  });

  it('answers a ref taken before a navigation with NOT_FOUND', async () => {
    const old = refOf(snap, /button "Create account"/);
    await h.text('browser_navigate', { url: `${h.base}/downloads.html` });
    expect(errorOf(await h.call('browser_click', { ref: old })).code).toBe('NOT_FOUND');
  });
});

describe('filling the sign-up form', () => {
  beforeAll(openForm);

  it('lists every form control with a ref', () => {
    for (const control of [
      /textbox "Full name \*"/,
      /textbox "Email \*"/,
      /textbox "Password \*"/,
      /combobox "Country"/,
      /radio "Pro"/,
      /textbox "Birthday"/,
      /checkbox "I accept the terms \*"/,
      /button "Create account"/,
    ]) {
      expect(() => refOf(snap, control)).not.toThrow();
    }
  });

  it('fills text fields, picks options, checks boxes, sets dates and submits', async () => {
    expect(await h.text('browser_input', { ref: refOf(snap, /textbox "Full name/), text: 'Ada Lovelace' })).toContain(
      '"Ada Lovelace"',
    );
    await h.text('browser_input', { ref: refOf(snap, /textbox "Email/), text: 'ada@example.com' });
    const typedPassword = await h.text('browser_input', {
      ref: refOf(snap, /textbox "Password/),
      text: 'correct horse',
    });
    expect(typedPassword).toContain('a password of 13 characters');
    expect(typedPassword).not.toContain('correct horse');
    const withPassword = await h.text('browser_snapshot');
    expect(withPassword).toMatch(/textbox "Password \*"[^\n]*= "\(hidden password\)"/);
    expect(withPassword).not.toContain('correct horse');
    expect(await h.text('browser_select', { ref: refOf(snap, /combobox "Country"/), values: ['Japan'] })).toContain(
      'Selected "Japan"',
    );
    expect(await h.text('browser_toggle', { ref: refOf(snap, /radio "Pro"/), checked: true })).toMatch(/now checked/);
    expect(await h.text('browser_toggle', { ref: refOf(snap, /checkbox "I accept the terms/) })).toMatch(/now checked/);
    expect(await h.text('browser_toggle', { ref: refOf(snap, /checkbox "I accept the terms/), checked: true })).toMatch(
      /already checked; nothing clicked/,
    );
    await h.text('browser_date_input', { ref: refOf(snap, /textbox "Birthday"/), value: '1990-12-10' });
    await h.text('browser_date_input', { ref: refOf(snap, /textbox "Preferred call time"/), value: '09:30' });
    expect(
      await h.text('browser_date_input', { ref: refOf(snap, /textbox "Start at"/), value: '2024-03-15 14:30' }),
    ).toContain('2024-03-15T14:30');
    await h.text('browser_click', { ref: refOf(snap, /button "Create account"/) });
    const after = await h.text('browser_snapshot');
    expect(after).toContain(
      'status: Submitted name=Ada+Lovelace&email=ada%40example.com&password=correct+horse&country=jp&plan=pro' +
        '&birthday=1990-12-10&calltime=09%3A30&start=2024-03-15T14%3A30',
    );
    expect(after).toMatch(/combobox "Country" = "Japan"/);
    expect(after).toMatch(/radio "Pro" checked/);
  });

  it('selects by option value as well as by label', async () => {
    expect(await h.text('browser_select', { ref: refOf(snap, /combobox "Country"/), values: ['de'] })).toContain(
      'Selected "Germany"',
    );
  });

  it('summarises the form with field values and masks the password', async () => {
    const summary = await h.text('browser_context_summary');
    expect(summary).toMatch(/Form "Sign up" \(POST \/submit\):/);
    expect(summary).toMatch(/email "Email \*" name=email = "ada@example.com" required/);
    expect(summary).toMatch(/password "Password \*" name=password = "\(set\)"/);
    expect(summary).not.toContain('correct horse');
    expect(summary).toMatch(/Headings: # Create your account/);
  });
});

describe('typing and picker widgets', () => {
  beforeAll(async () => {
    await h.text('browser_navigate', { url: `${h.base}/picker.html` });
    snap = await h.text('browser_snapshot');
  });

  it('refuses a read-only picker field and says to click through the calendar', async () => {
    const err = errorOf(
      await h.call('browser_date_input', { ref: refOf(snap, /textbox "Locked date"/), value: '03/15/2024' }),
    );
    expect(err.code).toBe('UNSUPPORTED');
    expect(err.hint).toMatch(/browser_click/);
  });

  it('refuses a date tool call on a number field', async () => {
    expect(
      errorOf(await h.call('browser_date_input', { ref: refOf(snap, /spinbutton "Guests"/), value: '2024-03-15' }))
        .code,
    ).toBe('INVALID_ARGUMENT');
  });

  it('types into a picker text field and presses Enter', async () => {
    await h.text('browser_date_input', { ref: refOf(snap, /textbox "Reservation date"/), value: '03/15/2024' });
    expect(await h.text('browser_snapshot')).toContain('Picked: 2024-03-15');
  });

  it('types key by key after the existing content in "type" mode', async () => {
    const ref = refOf(snap, /spinbutton "Guests"/);
    expect(await h.text('browser_input', { ref, text: '4', mode: 'type' })).toContain('"24"');
  });
});

describe('scrolling', () => {
  beforeAll(async () => {
    await h.text('browser_navigate', { url: `${h.base}/long.html` });
    snap = await h.text('browser_snapshot');
  });

  it('scrolls the page down, to the bottom and back to the top', async () => {
    expect(await h.text('browser_scroll', { direction: 'down', amount: 400 })).toMatch(/Scroll position 0,400 of/);
    expect(await h.text('browser_scroll', { direction: 'bottom' })).toMatch(/at the bottom/);
    expect(await h.text('browser_scroll', { direction: 'top' })).toMatch(/at the top/);
  });

  it('scrolls inside a scrollable element and brings an element into view', async () => {
    expect(
      await h.text('browser_scroll', { ref: refOf(snap, /region "Inner scroller"/), direction: 'down', amount: 100 }),
    ).toMatch(/Scroll position 0,100 of 0,\d+/);
    expect(await h.text('browser_scroll', { ref: refOf(snap, /button "Bottom button"/) })).toMatch(
      /into view.*(at the bottom|\d+% down)/,
    );
  });
});

describe('history', () => {
  it('goes back and forward between pages', async () => {
    await h.text('browser_navigate', { url: `${h.base}/form.html` });
    await h.text('browser_navigate', { url: `${h.base}/downloads.html` });
    expect(await h.text('browser_navigate', { history: 'back' })).toMatch(/Now on "Sign up"/);
    expect(await h.text('browser_navigate', { history: 'forward' })).toMatch(/Now on "Downloads"/);
    expect(await h.text('browser_navigate', { history: 'reload' })).toMatch(/Now on "Downloads"/);
  });

  it('refuses a file: URL outside the workspace', async () => {
    expect(errorOf(await h.call('browser_navigate', { url: 'file:///etc/hostname' })).code).toBe('PERMISSION_DENIED');
  });
});
