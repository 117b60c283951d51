/**
 * Rule guarded (docs/architecture.md#approval-rules): a person's rules allow, ask or deny calls by
 * tool id pattern and argument patterns before anyone is asked; deny beats ask beats allow; every
 * decision a rule makes is audited naming the rule; a path written with `..` can neither widen an
 * allow nor slip past a deny; a tool's own gate (an in-tool approval) meets the same rules.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../tools/core';
import {
  type ApprovalAuditEntry,
  type ApprovalRule,
  type RuleEffect,
  createPipeline,
  decidingRule,
  globMatches,
  parseRule,
  ruleText,
} from '../../tools/core/pipeline';
import { DESTRUCTIVE, MUTATING, fixtureTool, registryOf } from './fixtures';

let nextId = 1;
function rule(effect: RuleEffect, text: string): ApprovalRule {
  const parsed = parseRule(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return { id: nextId++, effect, tool: parsed.tool, args: parsed.args };
}

function setup(rules: ApprovalRule[]) {
  const asked: ApprovalRequest[] = [];
  const audit: ApprovalAuditEntry[] = [];
  const ran: string[] = [];
  const destructive = { annotations: DESTRUCTIVE, metadata: { category: 'files' as const, risk: 'HIGH' as const } };
  const tools = [
    fixtureTool('delete_file', (a) => (ran.push(`delete ${(a as { path?: string }).path}`), 'deleted'), {
      ...destructive,
      input: z.object({ path: z.string() }),
    }),
    fixtureTool('write_file', (a) => (ran.push(`write ${(a as { path?: string }).path}`), 'written'), {
      annotations: MUTATING,
      metadata: { category: 'files', risk: 'MEDIUM' },
      input: z.object({ path: z.string() }),
    }),
    fixtureTool('app_uninstall', (a) => (ran.push(`uninstall ${(a as { packageName?: string }).packageName}`), 'ok'), {
      ...destructive,
      input: z.object({ packageName: z.string() }),
    }),
    fixtureTool('shell_execute', (a) => (ran.push(`shell ${(a as { command?: string }).command}`), 'ran'), {
      ...destructive,
      input: z.object({ command: z.string() }),
      // As the real shell_execute declares: its own command gate asks, not the tool-level one.
      selfGated: true,
    }),
  ];
  const pipeline = createPipeline(registryOf(...tools), {
    approval: {
      decide: async (request) => {
        asked.push(request);
        return { decision: 'deny', reason: 'asked a person' };
      },
      audit: { record: (e) => audit.push(e) },
      rules: () => rules,
    },
  });
  return {
    asked,
    audit,
    ran,
    gate: pipeline.approval!,
    call: (toolId: string, args: unknown) => pipeline.executor.execute({ toolId, args, sessionId: 'claude#1' }),
  };
}

describe('rule text', () => {
  it('reads a tool pattern and field=pattern pairs, quotes keeping spaces, and writes it back', () => {
    expect(parseRule('shell_execute command="rm *"')).toEqual({
      ok: true,
      tool: 'shell_execute',
      args: [{ field: 'command', pattern: 'rm *' }],
    });
    expect(ruleText({ tool: 'shell_execute', args: [{ field: 'command', pattern: 'rm *' }] })).toBe(
      'shell_execute command="rm *"',
    );
    expect(parseRule('mcp.* ')).toEqual({ ok: true, tool: 'mcp.*', args: [] });
  });

  it('refuses what is not a rule, saying why', () => {
    expect(parseRule('')).toMatchObject({ ok: false, error: 'give a tool id or a pattern, e.g. write_file or mcp.*' });
    expect(parseRule('write_file path')).toMatchObject({
      ok: false,
      error: expect.stringContaining('is not field=pattern'),
    });
    expect(parseRule('write_file path="notes')).toEqual({ ok: false, error: 'a quote is not closed' });
    expect(parseRule('write file')).toMatchObject({ ok: false });
    expect(parseRule('write_file a=1 a=2')).toEqual({ ok: false, error: 'the field a is named twice' });
  });
});

describe('rule patterns', () => {
  it('match paths folder by folder when they hold a slash, and anything at all when they do not', () => {
    expect(globMatches('notes/**', 'notes/a/b.txt')).toBe(true);
    expect(globMatches('notes/*', 'notes/a.txt')).toBe(true);
    expect(globMatches('notes/*', 'notes/a/b.txt')).toBe(false);
    expect(globMatches('notes/**', 'notesX/a.txt')).toBe(false);
    expect(globMatches('rm *', 'rm -rf /sdcard/Download')).toBe(true);
    expect(globMatches('com.android.*', 'com.android.settings')).toBe(true);
    expect(globMatches('com.android.*', 'com.androidx.app')).toBe(false);
    expect(globMatches('a?c', 'abc')).toBe(true);
    expect(globMatches('a.c', 'abc')).toBe(false);
  });

  it('decide by deny over ask over allow, whatever their order', () => {
    const allow = rule('allow', 'write_file path=notes/**');
    const ask = rule('ask', 'write_file path=notes/drafts/**');
    const deny = rule('deny', 'write_file path=notes/drafts/secret*');
    for (const rules of [
      [allow, ask, deny],
      [deny, ask, allow],
    ]) {
      expect(decidingRule(rules, 'write_file', { path: 'notes/a.txt' })).toBe(allow);
      expect(decidingRule(rules, 'write_file', { path: 'notes/drafts/a.txt' })).toBe(ask);
      expect(decidingRule(rules, 'write_file', { path: 'notes/drafts/secret.txt' })).toBe(deny);
      expect(decidingRule(rules, 'write_file', { path: 'other.txt' })).toBeUndefined();
      expect(decidingRule(rules, 'write_file', {})).toBeUndefined();
    }
  });

  it('never let `..` widen an allow nor slip past a deny', () => {
    const allow = rule('allow', 'write_file path=notes/**');
    const deny = rule('deny', 'write_file path=secrets/**');
    expect(decidingRule([allow], 'write_file', { path: 'notes/../secrets/key.txt' })).toBeUndefined();
    expect(decidingRule([deny], 'write_file', { path: 'notes/../secrets/key.txt' })).toBe(deny);
    expect(decidingRule([allow], 'write_file', { path: 'notes/./a.txt' })).toBe(allow);
  });
});

describe('rules in the approval gate', () => {
  it('allow: a call that would wait for a person runs unasked, audited naming the rule', async () => {
    const allow = rule('allow', 'delete_file path=notes/**');
    const s = setup([allow]);
    expect(await s.call('delete_file', { path: 'notes/old.txt' })).toMatchObject({ ok: true });
    expect(s.asked).toEqual([]);
    expect(s.audit).toMatchObject([
      {
        toolId: 'delete_file',
        decision: 'allow',
        decider: 'rule',
        rule: `#${allow.id} allow delete_file path=notes/**`,
      },
    ]);
    expect(await s.call('delete_file', { path: 'other/old.txt' })).toMatchObject({ ok: false });
    expect(s.asked).toHaveLength(1);
  });

  it('deny: refused without asking, the model told a person set the rule, audited naming it', async () => {
    const deny = rule('deny', 'app_uninstall packageName=com.android.*');
    const s = setup([deny]);
    expect(await s.call('app_uninstall', { packageName: 'com.android.settings' })).toEqual({
      ok: false,
      error: {
        code: 'PERMISSION_DENIED',
        message:
          `The approval rule #${deny.id} deny app_uninstall ` +
          `packageName=com.android.* denies this call to 'app_uninstall'.`,
        hint:
          'A person set this rule; do not retry this call or a ' +
          'variant of it. Change your approach, or ask the user.',
        data: { gate: 'approval', decision: 'deny', slug: 'approval-rule-denied', rule: deny.id },
      },
    });
    expect(s.asked).toEqual([]);
    expect(s.ran).toEqual([]);
    expect(s.audit).toMatchObject([
      { decision: 'deny', decider: 'rule', rule: `#${deny.id} deny app_uninstall packageName=com.android.*` },
    ]);
  });

  it('ask: even a tool that needs no approval waits for a person, who is told which rule asks', async () => {
    const ask = rule('ask', 'write_file path=config/**');
    const s = setup([ask]);
    expect(await s.call('write_file', { path: 'config/app.json' })).toMatchObject({
      ok: false,
      error: { code: 'PERMISSION_DENIED' },
    });
    expect(s.asked).toMatchObject([{ toolId: 'write_file', rule: `#${ask.id} ask write_file path=config/**` }]);
    expect(s.asked[0]?.choices?.map((c) => c.decision)).toEqual(['approve_once']);
    expect(await s.call('write_file', { path: 'notes/a.txt' })).toMatchObject({ ok: true });
    expect(s.asked).toHaveLength(1);
  });

  it('deny beats allow when both match', async () => {
    const s = setup([rule('allow', 'app_uninstall'), rule('deny', 'app_uninstall packageName=com.android.*')]);
    expect(await s.call('app_uninstall', { packageName: 'com.android.settings' })).toMatchObject({ ok: false });
    expect(await s.call('app_uninstall', { packageName: 'com.example.shop' })).toMatchObject({ ok: true });
    expect(s.ran).toEqual(['uninstall com.example.shop']);
    expect(s.asked).toEqual([]);
  });

  it('reach a self-gated tool: deny and ask at the tool level, allow and deny at its own gate', async () => {
    const s = setup([
      rule('deny', 'shell_execute command="reboot*"'),
      rule('ask', 'shell_execute command="cat /data/*"'),
      rule('allow', 'shell_execute command="touch /sdcard/*"'),
    ]);
    expect(await s.call('shell_execute', { command: 'reboot now' })).toMatchObject({ ok: false });
    expect(await s.call('shell_execute', { command: 'cat /data/x' })).toMatchObject({ ok: false });
    expect(s.asked.map((r) => r.toolId)).toEqual(['shell_execute']);
    expect(await s.call('shell_execute', { command: 'ls /' })).toMatchObject({ ok: true });
    const inTool = (command: string) =>
      s.gate.askInTool({
        callId: 'c9',
        sessionId: 'claude#1',
        toolId: 'shell_execute',
        title: 'Run',
        args: { command, serial: 'p1' },
        risk: 'HIGH',
        annotations: DESTRUCTIVE as never,
        requester: { kind: 'mcp' },
      });
    expect(await inTool('touch /sdcard/x')).toEqual({ decision: 'approve_once', decider: 'rule' });
    expect(await inTool('reboot')).toMatchObject({ decision: 'deny', decider: 'rule' });
    expect(await inTool('touch /data/x')).toMatchObject({ decision: 'deny', reason: 'asked a person' });
  });
});
