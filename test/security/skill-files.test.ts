/**
 * Rule: an installed skill changes only through skill_install and skill_uninstall, which ask a
 * person. The file tools cannot read, write, edit, copy over or delete anything under
 * DATA/skills, nor the GitHub token file, also when the workspace is the data dir itself.
 * (The tools, prompts and resources a skill brings are built from the SKILL.md kept in the
 * database at install, so a file changed on disk would change nothing an agent sees either.)
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostSettings } from '../../tools/host/host-settings';
import { openDatabase } from '../../tools/host/store/database';
import { SettingsStore } from '../../tools/host/store/settings-store';
import { BUNDLED_SKILLS } from '../../tools/skills';
import { type TestHost, connectClient, startTestHost } from '../host/harness';
import { answerApprovals } from '../skills/support/approvals';

let t: TestHost;
let client: Client;
let approver: ReturnType<typeof answerApprovals>;
const SECRET_REFUSAL = "is one of Toolgate's own secret files";

beforeAll(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-skill-files-'));
  mkdirSync(dataDir, { recursive: true });
  const db = openDatabase(join(dataDir, 'toolgate.db'));
  new HostSettings(new SettingsStore(db)).update({ workspaceRoot: dataDir });
  db.close();
  writeFileSync(join(dataDir, 'github-token'), 'ghp_notARealTokenButSecret1234567890', { mode: 0o600 });
  // The desktop app's token, sealed by the OS keychain: still a secret file to the tools.
  writeFileSync(join(dataDir, 'github-token.enc'), Buffer.from('v11sealed-bytes'), { mode: 0o600 });
  t = await startTestHost({ dataDir });
  client = await connectClient(t.host, 'skill-tamperer');
  approver = answerApprovals(t.host);
});
afterAll(async () => {
  approver?.stop();
  await client?.close();
  await t?.dispose();
});

const SKILL = 'skills/web-form-check/SKILL.md';

async function refused(name: string, args: Record<string, unknown>) {
  const r = await client.callTool({ name, arguments: args });
  const s = r.structuredContent as { code: string; message: string };
  expect([name, s.code]).toEqual([name, 'PERMISSION_DENIED']);
  expect(s.message).toContain(SECRET_REFUSAL);
}

describe('installed skills are out of the file tools reach, even with the data dir as workspace', () => {
  it('refuses to read an installed SKILL.md or the GitHub token file, plain or sealed', async () => {
    await refused('read_file', { path: SKILL });
    await refused('read_file', { path: 'github-token' });
    await refused('read_file', { path: 'github-token.enc' });
    await refused('delete_file', { path: 'github-token.enc' });
  });

  it('refuses to write, edit, move over or delete skill files, or add one to a skill', async () => {
    await refused('write_file', { path: SKILL, content: '---\nname: web-form-check\ndescription: hijacked\n---\n' });
    await refused('write_file', { path: 'skills/web-form-check/evil.sh', content: 'echo pwned' });
    await refused('edit_file', { path: SKILL, oldText: 'Web form check', newText: 'Evil form check' });
    await refused('delete_file', { path: SKILL });
    await refused('delete_file', { path: 'skills', recursive: true });
    writeFileSync(join(t.dataDir, 'workspace-note.txt'), 'x');
    await refused('copy_move_file', {
      source: 'workspace-note.txt',
      destination: 'skills/web-form-check/note.txt',
      mode: 'copy',
    });
  });

  it('left the skill exactly as installed', () => {
    expect(readFileSync(join(t.dataDir, SKILL), 'utf8')).toBe(BUNDLED_SKILLS['web-form-check']);
  });
});
