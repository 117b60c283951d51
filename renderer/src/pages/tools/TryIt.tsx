/**
 * "Try it": calls the tool through the host's pipeline (traced, gated and limited like an agent's
 * call) and shows the result. A call that needs approval waits here until someone decides.
 */
import { useMutation } from '@tanstack/react-query';
import type { ToolSummary } from '../../../../shared/contract';
import { CallOutcomeView } from '../../components/CallOutcomeView';
import { ErrorState } from '../../components/ErrorState';
import { hrefFor } from '../../router/hash-route';
import { useApi } from '../../state/api-context';
import { SchemaForm } from './SchemaForm';

export function TryIt(props: { tool: ToolSummary }): React.JSX.Element {
  const api = useApi();
  const { tool } = props;
  const call = useMutation({ mutationFn: (args: Record<string, unknown>) => api.callTool({ toolId: tool.id, args }) });
  const needsApproval = tool.risk === 'HIGH' || tool.annotations.destructiveHint;
  return (
    <section className="card" aria-labelledby="tryit-title">
      <h2 id="tryit-title">Try it</h2>
      {needsApproval ? (
        <p className="muted small">
          This tool asks for approval before it runs: decide on the <a href={hrefFor('approvals')}>Approvals</a> page.
        </p>
      ) : null}
      <SchemaForm
        key={tool.id}
        schema={tool.inputSchema}
        idPrefix={`tool-${tool.id}`}
        submitLabel="Try it"
        busy={call.isPending}
        onSubmit={(args) => call.mutate(args)}
      />
      <div aria-live="polite">
        {call.isPending ? <p className="muted">Running {tool.id}…</p> : null}
        {call.isError ? <ErrorState what={`a result from ${tool.id}`} error={call.error} /> : null}
        {call.data ? <CallOutcomeView outcome={call.data} /> : null}
      </div>
    </section>
  );
}
