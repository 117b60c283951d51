/**
 * Rule: memory_recall_macro ranks what could do a goal in one call: defined shortcuts, the tools
 * (and prompts) of installed skills, and tool pairs agents repeated (mined from the traces), each
 * with how to call it. Ranking is BM25 over words (names, descriptions, the tools they call), and
 * says so: a goal that shares no word with any macro finds none.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestHost, connectClient, startTestHost, textOf } from '../host/harness';

let t: TestHost;
let client: Client;

beforeAll(async () => {
  t = await startTestHost();
  client = await connectClient(t.host, 'macro-user');
  await client.callTool({
    name: 'shortcut_define',
    arguments: {
      id: 'shortcut.wifi_settings',
      description: 'Open the Wi-Fi settings screen of the phone',
      steps: [{ tool: 'app_launch', args: { packageName: 'com.android.settings', activity: '.wifi.WifiSettings' } }],
    },
  });
  for (let i = 0; i < 3; i++) {
    await client.callTool({ name: 'uuid_generate', arguments: {} });
    await client.callTool({ name: 'calculate', arguments: { expression: `${i} * 2` } });
  }
});
afterAll(async () => {
  await client?.close();
  await t?.dispose();
});

type Macro = { kind: string; id: string; call: Record<string, unknown>; seen?: number; steps?: string[] };
async function recall(args: Record<string, unknown>) {
  const r = await client.callTool({ name: 'memory_recall_macro', arguments: args });
  return { r, s: r.structuredContent as { ranking: string; count: number; macros: Macro[]; code?: string } };
}

describe('macros for a goal', () => {
  it('finds the shortcut whose words fit, with the name to call it by', async () => {
    const { s } = await recall({ goal: 'open the wifi settings' });
    expect(s.ranking).toBe('bm25 word matching, no embeddings');
    expect(s.macros[0]).toMatchObject({
      kind: 'shortcut',
      id: 'shortcut.wifi_settings',
      call: { tool: 'shortcut_wifi_settings' },
      steps: ['app_launch'],
    });
  });

  it("finds a bundled skill's tool for an app smoke test", async () => {
    const { s } = await recall({ goal: 'smoke test that an android app starts', kinds: ['skill'] });
    expect(s.macros[0]).toMatchObject({
      kind: 'skill',
      id: 'skill.android-app-smoke-test.launch_and_inspect',
      call: { tool: 'skill_android-app-smoke-test_launch_and_inspect' },
    });
  });

  it('finds a sequence agents repeated, with the draft to define it', async () => {
    const { s } = await recall({ goal: 'generate a uuid then calculate', kinds: ['sequence'] });
    expect(s.macros[0]).toMatchObject({
      kind: 'sequence',
      seen: 3,
      steps: ['uuid_generate', 'calculate'],
      call: { tool: 'shortcut_define', args: expect.objectContaining({ id: 'shortcut.uuid_generate_then_calculate' }) },
    });
  });

  it('finds nothing for a goal that shares no word, and says where to look', async () => {
    const { r, s } = await recall({ goal: 'zebra quartz' });
    expect(s.count).toBe(0);
    expect(textOf(r)).toContain('shortcut_list and skill_search list what exists');
  });

  it('refuses an empty goal and an unknown kind, naming the field', async () => {
    expect((await recall({ goal: '' })).s).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect((await recall({ goal: 'x', kinds: ['spell'] })).s).toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
