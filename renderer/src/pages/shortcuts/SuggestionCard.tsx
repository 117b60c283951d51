/** A suggested shortcut (a pair of tools often called in a row) with one-click definition. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ShortcutSuggestion } from '../../../../shared/contract';
import { CallOutcomeView } from '../../components/CallOutcomeView';
import { ErrorState } from '../../components/ErrorState';
import { useApi } from '../../state/api-context';
import { queryKeys } from '../../state/query-keys';
import { StepList } from './StepList';

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
  return (
    <article className="card" aria-label={`Suggestion: ${label}`} data-testid="shortcut-suggestion">
      <header className="row spread">
        <h3 className="row">
          <code>{label}</code>
        </h3>
        <span className="muted small">seen {s.count}×</span>
      </header>
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
