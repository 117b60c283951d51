/**
 * Rule: a breaker snapshot saved by an older Toolgate (which kept the last error's message, and
 * per-target keys spelling the target) is read back safely at start: the breakers come back with
 * their state and error code, the message and the target's text are gone, and the settings row is
 * rewritten at once so no older text stays on disk even if the host is killed.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breakerKey } from '../../tools/core/pipeline';
import { openDatabase } from '../../tools/host/store/database';
import { SettingsStore } from '../../tools/host/store/settings-store';
import { type TestHost, connectClient, startTestHost, textOf } from './harness';

let t: TestHost;
beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-old-snapshot-'));
  const db = openDatabase(join(dataDir, 'toolgate.db'));
  const lastError = {
    code: 'EXECUTION_FAILED',
    message: "Tool 'calculate' failed: cannot parse 'hunter2SECRET + 1'",
    slug: 'cannot-parse-hunter2secret',
    at: Date.now(),
  };
  new SettingsStore(db).set('breakers.snapshot', {
    calculate: { state: 'open', openedAt: Date.now(), cooldownMs: 60_000, consecutiveFailures: 5, lastError },
    'ui_tap@hunter2SERIAL': { state: 'closed', consecutiveFailures: 2, lastError },
  });
  db.close();
  t = await startTestHost({ dataDir });
});
afterAll(async () => t?.dispose());

describe('an old breaker snapshot', () => {
  it('is rewritten at start without the message, the old slug or the target name', () => {
    const row = t.host.db.prepare("SELECT value FROM settings WHERE key = 'breakers.snapshot'").get() as {
      value: string;
    };
    expect(row.value).not.toMatch(/hunter2|parse/i);
    expect(JSON.parse(row.value)).toEqual({
      calculate: {
        state: 'open',
        openedAt: expect.any(Number),
        cooldownMs: 60_000,
        consecutiveFailures: 5,
        lastError: { code: 'EXECUTION_FAILED', slug: 'execution-failed', at: expect.any(Number) },
      },
      [breakerKey('ui_tap', 'hunter2SERIAL')]: {
        state: 'closed',
        consecutiveFailures: 2,
        lastError: { code: 'EXECUTION_FAILED', slug: 'execution-failed', at: expect.any(Number) },
      },
    });
  });

  it('still pauses the tool, with a refusal that names only the code', async () => {
    const client = await connectClient(t.host);
    const refused = textOf(await client.callTool({ name: 'calculate', arguments: { expression: '1+1' } }));
    expect(refused).toMatch(
      /^Error: CIRCUIT_OPEN: Tool 'calculate' is paused: it failed 5 times in a row \(last error: EXECUTION_FAILED\)\./,
    );
    expect(JSON.stringify(await t.host.api.breakers({}))).not.toMatch(/hunter2|parse/i);
    await client.close();
  });
});
