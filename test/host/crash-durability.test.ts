/**
 * Rule: what the host committed survives a crash. The host is killed with SIGKILL in the middle
 * of a stream of calls; the reopened database passes its integrity check, holds every shortcut
 * whose definition was confirmed (committed at once), and a span for every call whose result an
 * agent received before the last span group commit (spans are committed every
 * SPAN_FLUSH_INTERVAL_MS).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { DatabaseSync } from 'node:sqlite';
import { pragmaValue } from '../../tools/common/sqlite';
import { openDatabase } from '../../tools/host/store/database';
import { SPAN_FLUSH_INTERVAL_MS } from '../../tools/host/store/span-store';
import { connectClient } from './harness';
import { serve } from './process-harness';

const dir = mkdtempSync(join(tmpdir(), 'toolgate-crash-'));
let child:
  | { kill(signal: NodeJS.Signals): boolean; exitCode: number | null; signalCode: NodeJS.Signals | null }
  | undefined;
afterAll(() => {
  // A failed assertion must not leave the host running.
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

it('keeps every committed span and shortcut after SIGKILL mid-stream', async () => {
  const served = await serve(dir);
  child = served.child;
  const token = (await import('node:fs')).readFileSync(join(dir, 'token'), 'utf8').trim();
  const client = await connectClient({ address: { ...served.ready, port: 0 }, token });
  const confirmedCalls: Array<{ callId: string; at: number }> = [];
  const confirmedShortcuts: string[] = [];
  let stop = false;

  const agent = async (n: number) => {
    for (let i = 0; !stop; i++) {
      try {
        if (i % 5 === 4) {
          const id = `shortcut.crash_${n}_${i}`;
          const r = await client.callTool({
            name: 'shortcut_define',
            arguments: {
              id,
              description: 'crash test',
              steps: [{ tool: 'version_compare', args: { operation: 'compare', a: '1.0.0', b: '2.0.0' } }],
            },
          });
          if (!r.isError) confirmedShortcuts.push(id);
        } else {
          const r = await client.callTool({
            name: 'json_transform',
            arguments: { data: [{ n: i }], pipeline: [{ op: 'limit', count: 1 }] },
          });
          const callId = (r._meta as Record<string, string> | undefined)?.['toolgate/callId'];
          if (callId) confirmedCalls.push({ callId, at: performance.now() });
        }
      } catch {
        return; // the host died mid-call: that call was never confirmed
      }
    }
  };
  const agents = [agent(1), agent(2), agent(3)];
  // Kill only once the stream has run long enough for many calls to be past the commit window.
  await expect
    .poll(() => confirmedCalls.filter((c) => c.at < performance.now() - 600).length, { timeout: 30_000 })
    .toBeGreaterThan(40);
  const killedAt = performance.now();
  served.child.kill('SIGKILL');
  stop = true;
  await served.exited;
  await Promise.all(agents);
  await client.close().catch(() => undefined);

  const check = new DatabaseSync(join(dir, 'toolgate.db'));
  expect(pragmaValue(check, 'integrity_check')).toBe('ok');
  check.close();
  const db = openDatabase(join(dir, 'toolgate.db'));
  const spanCalls = new Set(
    (db.prepare('SELECT call_id FROM spans').all() as Array<{ call_id: string }>).map((r) => r.call_id),
  );
  // A generous margin over the flush interval: the commit timer may run late on a busy machine.
  const settled = confirmedCalls.filter((c) => c.at < killedAt - SPAN_FLUSH_INTERVAL_MS - 250);
  expect(settled.length).toBeGreaterThan(30);
  expect(settled.filter((c) => !spanCalls.has(c.callId))).toEqual([]);
  expect(spanCalls.size).toBeGreaterThan(0);
  const shortcutIds = new Set((db.prepare('SELECT id FROM shortcuts').all() as Array<{ id: string }>).map((r) => r.id));
  expect(confirmedShortcuts.filter((id) => !shortcutIds.has(id))).toEqual([]);
  expect(confirmedShortcuts.length).toBeGreaterThan(0);
  db.close();
});
