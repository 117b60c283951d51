/**
 * Attack ("Only a person approves", 6): a URL holding a secret in its path (`/slow/hunter2SECRET…`)
 * timed out often enough to open http_request's breaker, and the secret reached another MCP
 * session in the CIRCUIT_OPEN text ("last error: TIMEOUT: No complete response from http://…"),
 * the `breakers` API and, after shutdown, the SQLite settings row `breakers.snapshot`.
 *
 * Rules held here, through a real host and real MCP clients over HTTP:
 * - nothing argument-derived is written down: after failing calls of every tool family with random
 *   argument values, no 8-character run of any value is in any byte of the data dir (database with
 *   its WAL, logs), in any table's rows, in the JSON export, the breakers, the audit, or what the
 *   OTLP collector received;
 * - a breaker refusal names the tool, the target's digest and the last error's code, never the URL;
 *   only the person's breakers API names the target, by its origin, from memory;
 * - breakers are kept per destination: a dead host pauses calls to itself, not to a healthy one;
 * - host.log records each failure with its call id, tool, code and the cleaned error text.
 */
import { randomBytes } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { breakerKey, scopeDigest } from '../../tools/core/pipeline';
import { closedPortUrl } from '../ui/support/closed-port';
import { type TestHost, connectClient, startTestHost, textOf } from '../host/harness';
import { findLeak, runsOf } from '../support/argument-runs';
import { sqliteRows, writtenDown } from './support/written-down';

interface Local {
  url: string;
  close(): Promise<void>;
}

/** A local server: `/slow/…` never answers, anything else answers 200 at once. */
async function startLocal(onRequest?: (req: IncomingMessage, body: string) => void): Promise<Local> {
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      onRequest?.(req, body);
      if (req.url?.startsWith('/slow/')) return;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  textOf(await client.callTool({ name, arguments: args }));

describe('a secret in a URL that times out', () => {
  let t: TestHost;
  let slow: Local;
  const secret = `hunter2SECRET${randomBytes(8).toString('hex')}`;
  let secretUrl: string;

  beforeAll(async () => {
    slow = await startLocal();
    secretUrl = `${slow.url}/slow/${secret}`;
    t = await startTestHost();
  });
  afterAll(async () => {
    await t?.dispose();
    await slow?.close();
  });

  it('never reaches another session, the breakers API, host.log or, after shutdown, breakers.snapshot', async () => {
    const owner = await connectClient(t.host, 'secret-owner');
    for (let i = 0; i < 5; i++) {
      expect(await call(owner, 'http_request', { url: secretUrl, timeoutMs: 300 })).toContain('Error: TIMEOUT');
    }

    const other = await connectClient(t.host, 'another-session');
    const refused = await call(other, 'http_request', { url: `${slow.url}/ok` });
    const digest = scopeDigest(new URL(slow.url).origin);
    expect(refused).toMatch(
      new RegExp(
        `^Error: CIRCUIT_OPEN: Tool 'http_request' is paused for target ${digest}: it failed 5 times in a row ` +
          '\\(last error: TIMEOUT\\)\\. A probe call will be allowed in \\d+ s; do not retry now\\. ' +
          'Calls to its other targets are not paused\\.',
      ),
    );
    expect(findLeak(refused, [secretUrl, secret])).toBeUndefined();
    expect(refused).not.toMatch(/hunter|secret|slow/i);
    expect(refused).not.toContain(new URL(slow.url).host);

    const breakers = await t.host.api.breakers({});
    expect(breakers).toMatchObject([
      { toolId: `http_request@${digest}`, target: digest, state: 'OPEN', lastError: 'TIMEOUT' },
    ]);
    // The person's page names the target by its origin, held in memory (breaker-labels.test.ts); never its path.
    const [{ label, ...kept }] = breakers as [(typeof breakers)[number]];
    expect(label).toBe(new URL(slow.url).origin);
    expect(JSON.stringify(breakers)).not.toMatch(/hunter|secret|slow/i);
    expect(JSON.stringify(kept)).not.toMatch(/127\.0\.0\.1/);

    const spans = await t.host.api.exportSpans({ toolId: 'http_request', limit: 100 });
    expect(spans.spans.filter((s) => s.errorCode === 'TIMEOUT').map((s) => s.errorText)).toEqual(
      Array(5).fill('No complete response from ‹url› within 300 ms.'),
    );
    expect(findLeak(JSON.stringify(spans), [secretUrl])).toBeUndefined();
    await owner.close();
    await other.close();

    await t.host.close();
    const rows = sqliteRows(join(t.dataDir, 'toolgate.db'));
    const snapshotRow = rows.split('\n').find((r) => r.startsWith('breakers.snapshot\t'));
    expect(snapshotRow).toBeDefined();
    const snapshot = JSON.parse(snapshotRow!.slice('breakers.snapshot\t'.length));
    expect(snapshot).toEqual({
      [breakerKey('http_request', new URL(slow.url).origin)]: {
        state: 'open',
        openedAt: expect.any(Number),
        cooldownMs: 30_000,
        consecutiveFailures: 5,
        lastError: { code: 'TIMEOUT', slug: 'timeout', at: expect.any(Number) },
      },
    });
    expect(snapshotRow).not.toMatch(/hunter|secret|slow|127\.0\.0\.1/i);
    // The path is what is secret: the origin's text is the host's own address too (its log names it).
    expect(findLeak(writtenDown(t.dataDir).text, [`/slow/${secret}`])).toBeUndefined();

    const log = writtenDown(join(t.dataDir, 'logs')).text;
    const failures = log.split('\n').filter((l) => / call \S+ http_request attempt \d+ failed /.test(l));
    expect(failures).toHaveLength(6);
    expect(failures[0]).toMatch(
      / call \S+ http_request attempt 1 failed TIMEOUT: No complete response from ‹url› within 300 ms\.$/,
    );
    expect(failures[5]).toContain(`attempt 0 failed CIRCUIT_OPEN: Tool 'http_request' is paused for target ${digest}`);
    expect(findLeak(log, [`/slow/${secret}`])).toBeUndefined();
  });
});

describe('breakers per destination origin', () => {
  let t: TestHost;
  let healthy: Local;
  beforeAll(async () => {
    healthy = await startLocal();
    t = await startTestHost();
  });
  afterAll(async () => {
    await t?.dispose();
    await healthy?.close();
  });

  it('pauses calls to a dead host after 5 refused connections and still serves a healthy one', async () => {
    const client = await connectClient(t.host);
    const dead = await closedPortUrl();
    for (let i = 0; i < 5; i++) expect(await call(client, 'http_request', { url: dead })).toContain('EXECUTION_FAILED');
    expect(await call(client, 'http_request', { url: `${dead}again` })).toContain('Error: CIRCUIT_OPEN');
    expect(await call(client, 'http_request', { url: `${healthy.url}/ok` })).toMatch(/→ HTTP 200/);
    expect((await t.host.api.breakers({})).map((b) => [b.toolId, b.state])).toEqual([
      [breakerKey('http_request', new URL(dead).origin), 'OPEN'],
    ]);
    await client.close();
  });
});

/** A window no fixed text, id, port or timestamp of the host is likely to hold. */
function distinctive(w: string): boolean {
  return new Set(w).size >= 3 && /[^0-9a-f:.\-+tz/ ]/i.test(w);
}

describe('no argument text in anything written down, for failing tools of every family (property)', () => {
  let t: TestHost;
  let collector: Local;
  const otlpBodies: string[] = [];
  let closedPort: number;
  let approver: NodeJS.Timeout | undefined;

  beforeAll(async () => {
    collector = await startLocal((_req, body) => otlpBodies.push(body));
    closedPort = Number(new URL(await closedPortUrl()).port);
    t = await startTestHost({ virtualDevice: true });
    await t.host.api.updateSettings({
      changes: {
        otlpEndpoint: collector.url,
        webSearchEndpoint: `http://127.0.0.1:${closedPort}/search`,
      },
    });
    // The person at the screen: lets downloads go ahead (to fail on the network) and refuses deletions.
    approver = setInterval(async () => {
      try {
        for (const p of await t.host.api.pendingApprovals({})) {
          const decision = p.toolId === 'download_file' ? 'approve_once' : 'deny';
          await t.host.api.decideApproval({ approvalId: p.approvalId, decision, reason: 'not now' });
        }
      } catch {
        // the host is shutting down
      }
    }, 25);
  });
  afterAll(async () => {
    clearInterval(approver);
    await t?.dispose();
    await collector?.close();
  });

  interface Values {
    a: string;
    b: string;
    url: string;
    letters: string;
    number: number;
  }

  /** One failing call of each family, each putting argument text where its error message repeats it. */
  async function failingCalls(client: Client, v: Values, run: number): Promise<void> {
    const dead = `http://127.0.0.${2 + (run % 200)}:${closedPort}`;
    const calls: Array<[string, Record<string, unknown>]> = [
      // files
      ['read_file', { path: `missing/${v.a}` }],
      ['list_files', { path: v.b }],
      ['delete_file', { path: `victim-${v.letters}.txt` }],
      // structured, utility
      ['json_path', { json: `{"k": ${v.a}`, path: '$.k' }],
      ['regex_extract', { text: v.b, pattern: `(${v.a}` }],
      ['base_convert', { value: v.b, from: 10, to: 2 }],
      ['random_generate', { kind: 'integer', min: v.number, max: 1 }],
      ['calculate', { expression: v.url }],
      // orchestration, memory
      ['tool_batch_run', { steps: [{ tool: v.a, args: { note: v.b } }] }],
      ['shortcut_run', { id: v.b }],
      ['forget', { id: v.number }],
      // network
      ['http_request', { url: `${dead}/p/${v.a}?q=${v.b}`, timeoutMs: 2_000 }],
      ['web_fetch', { url: `${dead}/${v.b}` }],
      ['web_search', { query: v.a }],
      ['download_file', { url: `${dead}/${v.letters}`, path: `dl/${v.letters}.bin` }],
      // MCP client
      ['mcp_call', { server: v.a, tool: v.b }],
      ['mcp_list', { server: v.b }],
      // devices (the virtual phone)
      ['get_device_info', { serial: v.a }],
      ['app_launch', { packageName: `com.${v.letters}` }],
      // browser (real Chromium)
      ['browser_navigate', { url: `${dead}/${v.a}` }],
      ['browser_navigate', { url: `no scheme ${v.b}` }],
      ['browser_click', { ref: v.a }],
    ];
    for (const [name, args] of calls) await call(client, name, args);
  }

  const FAMILY_TOOLS = ['read_file', 'delete_file', 'json_path', 'base_convert', 'random_generate', 'calculate'];
  FAMILY_TOOLS.push('tool_batch_run', 'forget', 'http_request', 'web_fetch', 'web_search', 'download_file');
  FAMILY_TOOLS.push('mcp_call', 'mcp_list', 'get_device_info', 'app_launch', 'browser_navigate', 'browser_click');

  it('leaves no 8-character run of any argument value in the data dir, the exports or the OTLP spans', async () => {
    const client = await connectClient(t.host, 'property');
    // A first pass with fixed values: what the host writes whatever the arguments are, which random
    // values must not happen to contain (or a window of the host's own words would count as a leak).
    await failingCalls(
      client,
      {
        a: 'Fixed-Value-Ω-one',
        b: 'Fixed-Value-Ω-two',
        url: 'https://fixed.example/x',
        letters: 'fixedletters',
        number: 424242424,
      },
      0,
    );
    const baseline = new Set(runsOf(`${hostText()}\n${JSON.stringify(await apiText())}`));
    const fresh = (s: string) => runsOf(s).every((w) => distinctive(w) && !baseline.has(w));
    // A number's runs are digits only: varied enough not to be a float's tail (189.99999999), and new.
    // A run of letters only is a word the host may write of its own accord (fast-check favours
    // names like `propertyIsEnumerable`, and V8 says "Expected property name"): free text must hold
    // something else in every run; runs of letters alone are `letters`' part, which is random.
    const freshText = (s: string) => fresh(s) && runsOf(s).every((w) => /[^a-z]/i.test(w));
    const freshNumber = (n: number) => runsOf(String(n)).every((w) => new Set(w).size >= 5 && !baseline.has(w));

    const text = fc.oneof(
      fc.string({ unit: 'grapheme-ascii', minLength: 8, maxLength: 24 }),
      fc.string({ unit: 'grapheme', minLength: 8, maxLength: 24 }),
    );
    const values = fc.record({
      a: text.filter(freshText),
      b: fc.oneof(text.filter(freshText), fc.webUrl({ withQueryParameters: true }).filter(fresh)),
      url: fc.webUrl({ withQueryParameters: true, withFragments: true }).filter(fresh),
      letters: fc.stringMatching(/^[a-z]{10,16}$/).filter(fresh),
      number: fc.integer({ min: 100_000_000, max: 2_000_000_000 }).filter(freshNumber),
    });

    const used: string[] = [];
    let run = 0;
    await fc.assert(
      fc.asyncProperty(values, async (v) => {
        run++;
        used.push(v.a, v.b, v.url, v.letters, String(v.number));
        await failingCalls(client, v, run);
        const leak = findLeak(JSON.stringify(await apiText()), [v.a, v.b, v.url, v.letters, String(v.number)]);
        expect(leak).toBeUndefined();
      }),
      { numRuns: 6, endOnFailure: true },
    );
    await client.close();
    // Every family failed, with its own words (the spans keep them, cleaned).
    const failed = new Set(
      (await t.host.api.exportSpans({ outcome: 'error', limit: 10_000 })).spans.map((s) => s.toolId),
    );
    expect(FAMILY_TOOLS.filter((id) => !failed.has(id))).toEqual([]);
    clearInterval(approver);

    const live = writtenDown(t.dataDir);
    expect(live.files.some((f) => f.endsWith('toolgate.db-wal'))).toBe(true);
    expect(findLeak(live.text, used)).toBeUndefined();
    await t.host.close();
    const after = writtenDown(t.dataDir);
    expect(after.files.some((f) => f.endsWith('host.log'))).toBe(true);
    expect(findLeak(after.text, used)).toBeUndefined();
    expect(otlpBodies.length).toBeGreaterThan(0);
    expect(otlpBodies.join('\n')).toContain('toolgate.error_text');
    expect(findLeak(otlpBodies.join('\n'), used)).toBeUndefined();
  }, 240_000);

  /** What the host wrote as text: every table's rows and the logs (the raw bytes hold these and page noise). */
  function hostText(): string {
    return `${sqliteRows(join(t.dataDir, 'toolgate.db'))}\n${writtenDown(join(t.dataDir, 'logs')).text}`;
  }

  /**
   * What the host hands out about its calls: the JSON export, spans, breakers, audit, usage, the
   * in-memory trace. A breaker's target name is left out: it is the one thing the person's
   * Breakers page is given on purpose, from memory only (test/security/breaker-labels.test.ts).
   */
  async function apiText(): Promise<unknown> {
    const api = t.host.api;
    return [
      await api.exportSpans({ limit: 10_000 }),
      (await api.breakers({})).map(({ label: _, ...kept }) => kept),
      await api.auditLog({ limit: 5000 }),
      await api.usage({}),
      t.host.pipeline.trace.exportJson(),
    ];
  }
});
