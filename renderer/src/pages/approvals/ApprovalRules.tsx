/**
 * The person's approval rules: allow, ask or deny the calls of tools by id pattern and argument
 * patterns, applied before anyone is asked (deny beats ask beats allow). Only this page changes
 * them; no tool call can.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { describeError } from '../../api/host-request-error';
import { Badge, type BadgeTone } from '../../components/Badge';
import { EmptyState } from '../../components/EmptyState';
import { QueryState } from '../../components/QueryState';
import { formatDateTime } from '../../components/format';
import { useApi } from '../../state/api-context';
import { useApprovalRules } from '../../state/queries';
import { queryKeys } from '../../state/query-keys';

type Effect = 'allow' | 'ask' | 'deny';
const TONE: Record<Effect, BadgeTone> = { allow: 'good', ask: 'warn', deny: 'bad' };

export function ApprovalRules(): React.JSX.Element {
  const api = useApi();
  const client = useQueryClient();
  const rules = useApprovalRules();
  const id = useId();
  const [effect, setEffect] = useState<Effect>('ask');
  const [text, setText] = useState('');
  const [note, setNote] = useState('');
  const [said, setSaid] = useState('');
  const refresh = () => void client.invalidateQueries({ queryKey: queryKeys.approvalRules });
  const add = useMutation({
    mutationFn: () => api.addApprovalRule({ effect, rule: text, ...(note.trim() ? { note: note.trim() } : {}) }),
    onSuccess: (r) => {
      setSaid(r.message);
      if (r.ok) {
        setText('');
        setNote('');
        refresh();
      }
    },
    onError: (e) => setSaid(`Not added: ${describeError(e)}`),
  });
  const remove = useMutation({
    mutationFn: (ruleId: number) => api.removeApprovalRule({ id: ruleId }),
    onSuccess: (r) => {
      setSaid(r.message);
      refresh();
    },
  });

  return (
    <section aria-labelledby={`${id}-title`} data-testid="approval-rules">
      <h2 id={`${id}-title`} className="section-title">
        Rules
      </h2>
      <p className="small muted">
        Applied before anyone is asked: <strong>deny</strong> refuses, <strong>allow</strong> runs without asking,{' '}
        <strong>ask</strong> always asks. Deny beats ask beats allow. Write a tool id or pattern, then field=pattern
        pairs: <code>write_file path=notes/**</code>, <code>app_uninstall packageName=com.android.*</code>,{' '}
        <code>shell_execute command="rm *"</code>. In a pattern with a <code>/</code>, <code>*</code> stays within one
        folder and <code>**</code> crosses folders; without one, <code>*</code> matches anything.
      </p>
      <form
        className="row approval-rule-form"
        onSubmit={(e) => {
          e.preventDefault();
          add.mutate();
        }}
      >
        <label htmlFor={`${id}-effect`}>Effect</label>
        <select id={`${id}-effect`} value={effect} onChange={(e) => setEffect(e.target.value as Effect)}>
          <option value="allow">allow</option>
          <option value="ask">ask</option>
          <option value="deny">deny</option>
        </select>
        <label htmlFor={`${id}-rule`}>Rule</label>
        <input
          id={`${id}-rule`}
          type="text"
          className="mono"
          placeholder="write_file path=notes/**"
          value={text}
          maxLength={2000}
          onChange={(e) => setText(e.target.value)}
        />
        <label htmlFor={`${id}-note`}>Note</label>
        <input id={`${id}-note`} type="text" value={note} maxLength={500} onChange={(e) => setNote(e.target.value)} />
        <button type="submit" disabled={add.isPending || text.trim() === ''}>
          Add rule
        </button>
      </form>
      <p className="status-line small" role="status" aria-live="polite" data-testid="rule-status">
        {said}
      </p>
      <QueryState
        query={rules}
        what="the approval rules"
        isEmpty={(l) => l.length === 0}
        empty={
          <EmptyState title="No rules yet.">Without rules, destructive and high-risk calls ask a person.</EmptyState>
        }
      >
        {(list) => (
          <table className="data-table" aria-label="Approval rules" data-testid="rules-table">
            <thead>
              <tr>
                <th scope="col">#</th>
                <th scope="col">Effect</th>
                <th scope="col">Rule</th>
                <th scope="col">Matches</th>
                <th scope="col">Note</th>
                <th scope="col">Added</th>
                <th scope="col">
                  <span className="visually-hidden">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((r) => (
                <tr key={r.id}>
                  <td className="mono">{r.id}</td>
                  <td>
                    <Badge tone={TONE[r.effect]}>{r.effect}</Badge>
                  </td>
                  <td>
                    <code>{r.text}</code>
                  </td>
                  <td>{r.matchesTools === 1 ? '1 tool' : `${r.matchesTools} tools`}</td>
                  <td className="wrap">{r.note ?? '—'}</td>
                  <td className="nowrap">{formatDateTime(r.createdAt)}</td>
                  <td>
                    <button type="button" className="secondary" onClick={() => remove.mutate(r.id)}>
                      Remove #{r.id}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
    </section>
  );
}
