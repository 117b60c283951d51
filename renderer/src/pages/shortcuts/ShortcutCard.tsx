/** A defined shortcut: its steps and a small form to run it through the pipeline. */
import { useMutation } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ShortcutDefinition } from '../../../../shared/contract';
import { CallOutcomeView } from '../../components/CallOutcomeView';
import { ErrorState } from '../../components/ErrorState';
import { useApi } from '../../state/api-context';
import { SchemaForm } from '../tools/SchemaForm';
import { StepList } from './StepList';
import { paramsSchema } from './shortcut-schema';

export function ShortcutCard(props: { shortcut: ShortcutDefinition }): React.JSX.Element {
  const { shortcut } = props;
  const api = useApi();
  const schema = useMemo(() => paramsSchema(shortcut), [shortcut]);
  const run = useMutation({
    mutationFn: (args: Record<string, unknown>) => api.callTool({ toolId: shortcut.id, args }),
  });
  return (
    <article className="card" aria-labelledby={`sc-${shortcut.id}`} data-testid="defined-shortcut">
      <h3 id={`sc-${shortcut.id}`}>
        <code>{shortcut.id}</code>
      </h3>
      <p>{shortcut.description}</p>
      <StepList steps={shortcut.steps} />
      <SchemaForm
        schema={schema}
        idPrefix={`sc-${shortcut.id}`}
        submitLabel={`Run ${shortcut.id}`}
        busy={run.isPending}
        onSubmit={(args) => run.mutate(args)}
      />
      <div aria-live="polite">
        {run.isError ? <ErrorState what={`a result from ${shortcut.id}`} error={run.error} /> : null}
        {run.data ? <CallOutcomeView outcome={run.data} /> : null}
      </div>
    </article>
  );
}
