/**
 * Rule: each waiting call says where it comes from in words (an MCP client and its session, a
 * step of a batch or shortcut and who asked for it, the UI, a replay), and the page groups waiting
 * calls by tool and the client their session belongs to, oldest first.
 */
import { describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../shared/contract';
import { groupApprovals } from '../../renderer/src/pages/approvals/approval-groups';
import { clientOf, describeOrigin } from '../../renderer/src/pages/approvals/origin';

describe('the origin of a waiting call', () => {
  it('names the MCP client and its session, a batch or shortcut step and who asked for it, or the UI', () => {
    const claude = { kind: 'mcp', id: 'claude#3', label: 'claude-code 1.2.0' };
    expect(describeOrigin(claude)).toBe('MCP client claude-code 1.2.0 in session claude#3');
    expect(describeOrigin({ kind: 'batch', id: 'c0ffee12345', label: 'tool_batch_run', step: 2, via: claude })).toBe(
      'step 2 of a batch (call c0ffee12), asked by MCP client claude-code 1.2.0 in session claude#3',
    );
    expect(
      describeOrigin({
        kind: 'shortcut',
        id: 'abc',
        label: 'shortcut.tidy',
        step: 1,
        via: { kind: 'ui', label: 'Try it' },
      }),
    ).toBe('step 1 of shortcut.tidy (call abc), asked by the Toolgate UI (Try it)');
    expect(describeOrigin({ kind: 'ui', label: 'Live screen' })).toBe('the Toolgate UI (Live screen)');
    expect(describeOrigin({ kind: 'internal' })).toBe('Toolgate itself');
  });

  it('names a replay as the person running an earlier call again', () => {
    expect(describeOrigin({ kind: 'replay', id: 'c0ffee12345', label: 'Replay of c0ffee12345' })).toBe(
      'a person in the Toolgate UI, running call c0ffee12 again',
    );
  });

  it('belongs to the client its session label names', () => {
    expect(clientOf('claude#3')).toBe('claude');
    expect(clientOf('my#team#12')).toBe('my#team');
    expect(clientOf('ui')).toBe('UI');
  });
});

describe('grouping waiting calls', () => {
  const card = (toolId: string, sessionId: string, requestedAt: number): PendingApproval =>
    ({ approvalId: `${toolId}-${sessionId}-${requestedAt}`, toolId, sessionId, requestedAt }) as PendingApproval;

  it('groups by tool and client, the group of the oldest call first, each oldest first', () => {
    const groups = groupApprovals([
      card('forget', 'cursor#2', 5),
      card('delete_file', 'claude#1', 3),
      card('delete_file', 'claude#4', 1),
      card('delete_file', 'cursor#2', 2),
    ]);
    expect(groups.map((g) => [g.toolId, g.client, g.items.map((i) => i.requestedAt)])).toEqual([
      ['delete_file', 'claude', [1, 3]],
      ['delete_file', 'cursor', [2]],
      ['forget', 'cursor', [5]],
    ]);
  });
});
