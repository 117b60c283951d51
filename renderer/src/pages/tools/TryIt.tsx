/**
 * "Try it": calls the tool through the host's pipeline (traced, gated and limited like an agent's
 * call) and shows the result. A call that needs approval waits here until someone decides. Opened
 * from a call's detail it starts with that call's arguments; a `serial` field offers the devices
 * the host sees.
 */
import { useMutation } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import type { ToolSummary } from '../../../../shared/contract';
import { CallOutcomeView } from '../../components/CallOutcomeView';
import { ErrorState } from '../../components/ErrorState';
import { hrefFor } from '../../router/hash-route';
import { useApi } from '../../state/api-context';
import { useDevices } from '../../state/queries';
import { forgetTryItDraft, peekTryItDraft } from '../../state/try-it-draft';
import type { FieldChoice } from './SchemaField';
import { SchemaForm } from './SchemaForm';

function hasSerial(schema: Record<string, unknown>): boolean {
  const properties = schema.properties;
  return typeof properties === 'object' && properties !== null && 'serial' in properties;
}

export function TryIt(props: { tool: ToolSummary }): React.JSX.Element {
  const api = useApi();
  const { tool } = props;
  const [draft] = useState(() => peekTryItDraft(tool.id));
  useEffect(() => forgetTryItDraft(tool.id), [tool.id]);
  const serial = hasSerial(tool.inputSchema);
  const devices = useDevices(serial);
  const choices = useMemo((): Record<string, FieldChoice[]> | undefined => {
    const list = devices.data ?? [];
    if (!serial || list.length === 0) return undefined;
    return {
      serial: list.map((d) => ({
        value: d.serial,
        label: `${d.serial}${d.model ? ` (${d.model})` : ''}${d.state === 'device' ? '' : ` — ${d.state}`}`,
      })),
    };
  }, [serial, devices.data]);
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
      {draft ? (
        <p className="small" data-testid="try-it-draft">
          Starting from the arguments of <a href={hrefFor('traces', draft.fromCall)}>call {draft.fromCall}</a> (from the
          host's memory): edit them, then Try it.
        </p>
      ) : null}
      {serial && devices.data && devices.data.length === 0 ? (
        <p className="muted small">
          No device is attached, so serial is typed by hand (or left empty for the only one).
        </p>
      ) : null}
      <SchemaForm
        key={tool.id}
        schema={tool.inputSchema}
        idPrefix={`tool-${tool.id}`}
        submitLabel="Try it"
        busy={call.isPending}
        {...(draft ? { initialArgs: draft.args } : {})}
        {...(choices ? { choices } : {})}
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
