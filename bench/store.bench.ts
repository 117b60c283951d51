/**
 * Durable write speed of the host's store (tools/host/store) against plain node:sqlite, in one run
 * with interleaved rounds. Ours: spans through SpanStore (buffered group commits, as the pipeline's
 * span listener writes them), with an approval audit row every 50 spans and a breaker transition
 * every 100 (each committed at once, as the host does). Peer: the same rows inserted with one
 * prepared statement per table inside a single transaction on a fresh database. Both databases are
 * files in WAL mode with the host's pragmas. The last line is one JSON object.
 *
 * Run: `npm run bench -- store`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { TraceSpan } from '../tools/core/trace-span';
import { transaction } from '../tools/common/sqlite';
import { AuditStore } from '../tools/host/store/audit-store';
import { BreakerStore } from '../tools/host/store/breaker-store';
import { type Db, openDatabase } from '../tools/host/store/database';
import { SpanStore } from '../tools/host/store/span-store';

const SPANS = 50_000;
const ROUNDS = 5;

function span(i: number): TraceSpan {
  return {
    spanId: `span-${i}`,
    callId: `call-${i >> 1}`,
    toolId: i % 3 ? 'ui_tap' : 'http_request',
    sessionId: 'client#1',
    requesterKind: 'mcp',
    attempt: (i % 2) + 1,
    startedAt: 1_780_000_000_000 + i,
    durationMs: 1 + (i % 7),
    outcome: i % 10 ? 'success' : 'error',
    ...(i % 10 ? {} : { errorCode: 'TIMEOUT' as const, errorSlug: 'timeout' }),
    backoffMs: 0,
    argsDigest: {
      fields: { x: { kind: 'number', length: 3 }, serial: { kind: 'string', length: 14, printable: 14 } },
      totalLength: 40,
    },
  };
}
const spans = Array.from({ length: SPANS }, (_, i) => span(i));

function freshDb(): { db: Db; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'toolgate-bench-store-'));
  return { db: openDatabase(join(dir, 'toolgate.db')), dir };
}

function timeOurs(): number {
  const { db, dir } = freshDb();
  const store = new SpanStore(db, 1_000_000);
  const audit = new AuditStore(db);
  const breakers = new BreakerStore(db);
  const t0 = performance.now();
  for (let i = 0; i < SPANS; i++) {
    store.insert(spans[i]!);
    if (i % 50 === 0) {
      audit.append({
        at: i,
        callId: `call-${i}`,
        sessionId: 'client#1',
        toolId: 'delete_file',
        argsDigest: '{}',
        decision: 'approve_once',
        decider: 'ui',
      });
    }
    if (i % 100 === 0)
      breakers.append({ toolId: 'http_request', from: 'CLOSED', to: 'OPEN', at: i, cause: 'failures' });
  }
  store.flush();
  const ms = performance.now() - t0;
  if (store.count() !== SPANS) throw new Error(`stored ${store.count()} of ${SPANS} spans`);
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return ms;
}

function timeRaw(): number {
  const { db, dir } = freshDb();
  const insertSpan = db.prepare(
    `INSERT INTO spans (span_id, call_id, parent_call_id, tool_id, session_id, requester_kind, attempt, started_at,
       duration_ms, outcome, error_code, error_slug, backoff_ms, args_digest)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertAudit = db.prepare(
    'INSERT INTO approval_audit (at, call_id, session_id, tool_id, ' +
      'args_digest, decision, reason, decider) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertTransition = db.prepare(
    'INSERT INTO breaker_transitions (tool_id, from_state, to_state, at, cause) VALUES (?, ?, ?, ?, ?)',
  );
  const t0 = performance.now();
  transaction(db, () => {
    for (let i = 0; i < SPANS; i++) {
      const s = spans[i]!;
      insertSpan.run(
        s.spanId,
        s.callId,
        null,
        s.toolId,
        s.sessionId,
        s.requesterKind,
        s.attempt,
        s.startedAt,
        s.durationMs,
        s.outcome,
        s.errorCode ?? null,
        s.errorSlug ?? null,
        s.backoffMs,
        JSON.stringify(s.argsDigest),
      );
      if (i % 50 === 0) insertAudit.run(i, `call-${i}`, 'client#1', 'delete_file', '{}', 'approve_once', null, 'ui');
      if (i % 100 === 0) insertTransition.run('http_request', 'CLOSED', 'OPEN', i, 'failures');
    }
  });
  const ms = performance.now() - t0;
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return ms;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const ours: number[] = [];
const raw: number[] = [];
timeOurs();
timeRaw(); // warm-up
for (let r = 0; r < ROUNDS; r++) {
  if (r % 2 === 0) ours.push(timeOurs()), raw.push(timeRaw());
  else raw.push(timeRaw()), ours.push(timeOurs());
  console.log(
    `round ${r + 1}: store ${ours.at(-1)!.toFixed(1)} ms, raw ${raw.at(-1)!.toFixed(1)} ms for ${SPANS} spans`,
  );
}
const spansPerSec = Math.round(SPANS / (median(ours) / 1000));
console.log(
  JSON.stringify({
    bench: 'store',
    spansPerSec,
    ratios: { store_vs_raw: Number((median(ours) / median(raw)).toFixed(3)) },
  }),
);
