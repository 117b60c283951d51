/** A suggested shortcut (tools an agent keeps calling in this order) with its evidence and one-click definition. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ShortcutSuggestion } from '../../../../shared/contract';
import { CallOutcomeView } from '../../components/CallOutcomeView';
import { ErrorState } from '../../components/ErrorState';
import { useApi } from '../../state/api-context';
import { queryKeys } from '../../state/query-keys';
import { StepList } from './StepList';
import { plural } from '../../../../shared/call-classes';
import { formatAgo, formatDateTime, formatPercent } from '../../components/format';
import { useNow } from '../../components/use-now';

/** "4 times in this order, all steps successful (4 of 5 tries: 80 %), in 2 sessions". */
export function evidenceText(e: ShortcutSuggestion['evidence']): string {
  const tries =
    e.seen > e.count ? ` (${e.count} of ${plural(e.seen, 'try', 'tries')}: ${formatPercent(e.successRate)})` : '';
  return `${plural(e.count, 'time')} in this order, all steps successful${tries}, in ${plural(e.sessions, 'session')}`;
}

export function SuggestionCard(props: { suggestion: ShortcutSuggestion }): React.JSX.Element {
  const { suggestion: s } = props;
  const api = useApi();
  const client = useQueryClient();
  const define = useMutation({
    mutationFn: () => api.defineShortcut(s.draft),
    onSuccess: (outcome) => {
      if (!outcome.ok) return;
      void client.invalidateQueries({ queryKey: queryKeys.shortcuts });
      void client.invalidateQueries({ queryKey: queryKeys.tools });
    },
  });
  const label = s.tools.join(' → ');
  const now = useNow(30_000);
  return (
    <article className="card" aria-label={`Suggestion: ${label}`} data-testid="shortcut-suggestion">
      <header className="row spread">
        <h3 className="row">
          <code>{label}</code>
        </h3>
      </header>
      <p className="small" data-testid="suggestion-evidence">
        {evidenceText(s.evidence)}; last seen{' '}
        <span title={formatDateTime(s.evidence.lastSeen)}>{formatAgo(Math.max(0, now - s.evidence.lastSeen))}</span>.
      </p>
      <p>{s.draft.description}</p>
      <p className="small">
        Would define <code>{s.draft.id}</code>
        {s.draft.params.length ? ` with parameters ${s.draft.params.map((p) => p.name).join(', ')}` : ''}.
      </p>
      <StepList steps={s.draft.steps} />
      <button
        type="button"
        onClick={() => define.mutate()}
        disabled={define.isPending || define.data?.ok === true}
        aria-label={`Define ${s.draft.id}`}
      >
        {define.isPending ? 'Defining…' : define.data?.ok ? 'Defined' : 'Define'}
      </button>
      <div aria-live="polite">
        {define.isError ? <ErrorState what="the definition" error={define.error} /> : null}
        {define.data && !define.data.ok ? <CallOutcomeView outcome={define.data} /> : null}
      </div>
    </article>
  );
}
