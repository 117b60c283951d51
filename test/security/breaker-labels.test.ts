/**
 * Rule: a per-target breaker is kept, stored and shown to agents by its target's digest only,
 * since the target (a host, a phone) comes from a call's arguments. The person watching the
 * Breakers page still learns which host a breaker is about: the host process holds digest →
 * target in memory, bounded, and gives it only to the person's UI API. Through a real MCP client
 * against a running host: the name is on the page's data, and nowhere else: not in the SQLite
 * files, the host's log, the span export or a call's report, nor in anything an MCP client reads
 * (a breaker's refusal, the tool list, resources, prompts). After a restart only the digest is known.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BreakerView } from '../../shared/contract';
import { BreakerLabels, breakerKey } from '../../tools/core/pipeline';
import { startHost } from '../../tools/host/host';
import { type TestHost, connectClient, startTestHost, textOf } from '../host/harness';
import { type PersonSession, openPersonSession } from '../support/person-session';
import { closedPortUrl } from '../ui/support/closed-port';

let t: TestHost;
let person: PersonSession;
let agent: Client;
let onlooker: Client;
let url: string;
let origin: string;
let key: string;
let refusal = '';
let failedCallId = '';

/** Every file under a folder, as text (SQLite, its WAL, the log, settings). */
function filesUnder(dir: string): Array<{ path: string; text: string }> {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return [{ path, text: readFileSync(path).toString('latin1') }];
  });
}

beforeAll(async () => {
  t = await startTestHost({});
  person = await openPersonSession(t.host.uiLink());
  agent = await connectClient(t.host, 'dead-host-caller');
  onlooker = await connectClient(t.host, 'onlooker');
  url = await closedPortUrl();
  origin = new URL(url).origin;
  key = breakerKey('http_request', origin);
  for (let i = 0; i < 8 && !refusal; i++) {
    const result = await agent.callTool({ name: 'http_request', arguments: { url, method: 'GET' } });
    const text = textOf(result);
    if (text.includes('CIRCUIT_OPEN')) refusal = text;
    else failedCallId ||= (result._meta as Record<string, string> | undefined)?.['toolgate/callId'] ?? '';
  }
}, 60_000);
afterAll(async () => {
  await agent?.close();
  await onlooker?.close();
  await t?.dispose();
});

describe("a breaker's target name", () => {
  it("is on the person's Breakers data, next to the digest", async () => {
    expect(refusal).toContain('CIRCUIT_OPEN');
    const views = (await person.rpc('breakers', {})).body as BreakerView[];
    expect(views.find((v) => v.toolId === key)).toMatchObject({
      target: key.split('@')[1],
      label: origin,
      state: 'OPEN',
    });
  });

  it('is in nothing an MCP client reads: the refusal, the tool list, resources, prompts', async () => {
    expect(refusal).not.toContain(origin);
    expect(refusal).not.toContain(new URL(url).host);
    const seen: string[] = [JSON.stringify(await onlooker.listTools())];
    const caps = onlooker.getServerCapabilities();
    if (caps?.resources) {
      const { resources } = await onlooker.listResources();
      seen.push(JSON.stringify(resources));
      for (const r of resources) seen.push(JSON.stringify(await onlooker.readResource({ uri: r.uri })));
    }
    if (caps?.prompts) seen.push(JSON.stringify(await onlooker.listPrompts()));
    for (const text of seen) expect(text).not.toContain(new URL(url).host);
  });

  it("is in neither the span export nor a call's report", async () => {
    const exported = JSON.stringify((await person.rpc('exportSpans', {})).body);
    expect(exported).toContain(failedCallId);
    expect(exported).not.toContain(new URL(url).host);
    const report = (await person.rpc('callReport', { callId: failedCallId })).body;
    expect(JSON.stringify(report)).toContain(key);
    expect(JSON.stringify(report)).not.toContain(new URL(url).host);
  });

  it('is in no file the host wrote, and after a restart the page knows only the digest', async () => {
    await t.host.close();
    const files = filesUnder(t.dataDir);
    expect(files.map((f) => f.path).some((p) => p.includes('.db'))).toBe(true);
    expect(files.filter((f) => f.text.includes(new URL(url).host)).map((f) => f.path)).toEqual([]);
    const again = await startHost({ port: 0, dataDir: t.dataDir, adbPort: 1 });
    try {
      const view = (await again.api.breakers({})).find((v) => v.toolId === key);
      expect(view).toMatchObject({ target: key.split('@')[1] });
      expect(view).not.toHaveProperty('label');
    } finally {
      await again.close();
    }
  });
});

describe('the labels a host holds', () => {
  it('are bounded: the least recently used name goes first', () => {
    const labels = new BreakerLabels(2);
    labels.note('t@00000001', 'one.example');
    labels.note('t@00000002', 'two.example');
    labels.note('t@00000001', 'one.example');
    labels.note('t@00000003', 'three.example');
    expect([labels.labelOf('t@00000001'), labels.labelOf('t@00000002'), labels.labelOf('t@00000003')]).toEqual([
      'one.example',
      undefined,
      'three.example',
    ]);
    expect(labels.size).toBe(2);
  });

  it('write nothing when serialised', () => {
    const labels = new BreakerLabels();
    labels.note('t@00000001', 'secret.example');
    expect(JSON.stringify({ labels })).toBe('{}');
  });
});
