/**
 * A call's arguments as the host remembers them while it runs: kept in memory only, never written
 * or exported, gone when the host restarts. From here the person can run the call again through
 * the pipeline (gated and traced like any call, marked as a replay) or open it in Try it to edit
 * the arguments first; neither is possible once the arguments are gone.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallDetail } from '../../../../shared/contract';
import { describeError } from '../../api/host-request-error';
import { CallOutcomeView } from '../../components/CallOutcomeView';
import { JsonBlock } from '../../components/JsonBlock';
import { hrefFor, navigate } from '../../router/hash-route';
import { useApi } from '../../state/api-context';
import { queryKeys } from '../../state/query-keys';
import { setTryItDraft } from '../../state/try-it-draft';

const MEMORY_NOTE = 'Kept in memory only: never written or exported; gone when the host restarts.';

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function RememberedArguments(props: {
  callId: string;
  toolId: string;
  memory: CallDetail['memory'];
}): React.JSX.Element {
  const api = useApi();
  const client = useQueryClient();
  const replay = useMutation({
    mutationFn: () => api.replayCall({ callId: props.callId }),
    onSettled: () => void client.invalidateQueries({ queryKey: queryKeys.callDetail(props.callId) }),
  });
  const { memory } = props;
  if (!memory || memory.argsDropped || !isRecord(memory.args))
    return (
      <p className="muted small" data-testid="arguments-gone">
        {memory?.argsDropped === 'too-large'
          ? 'The arguments were too large to keep in memory.'
          : 'The arguments are not in memory: the host keeps them only while it runs and only for its most ' +
            'recent calls, and never writes them down.'}{' '}
        So this call cannot be run again from here; open{' '}
        <a href={hrefFor('tools', props.toolId)}>
          <code>{props.toolId}</code> in Try it
        </a>{' '}
        to enter them anew.
      </p>
    );
  const args = memory.args;
  return (
    <div className="remembered-args" data-testid="remembered-args">
      <p className="small warn-text" data-testid="memory-note">
        {MEMORY_NOTE}
      </p>
      <JsonBlock value={args} label="Arguments (in memory only)" maxHeight={260} />
      <div className="row">
        <button type="button" onClick={() => replay.mutate()} disabled={replay.isPending}>
          {replay.isPending ? 'Running again…' : 'Run again'}
        </button>
        <button
          type="button"
          className="secondary"
          onClick={() => {
            setTryItDraft(props.toolId, args, props.callId);
            navigate('tools', props.toolId);
          }}
        >
          Open in Try it
        </button>
        <span className="muted small">A replay goes through the pipeline as a call of yours, marked as a replay.</span>
      </div>
      {memory.replays.length ? (
        <p className="small">
          Run again as{' '}
          {memory.replays.map((id, i) => (
            <span key={id}>
              {i ? ', ' : ''}
              <a href={hrefFor('traces', id)}>call {id}</a>
            </span>
          ))}
          .
        </p>
      ) : null}
      <div aria-live="polite" data-testid="replay-result">
        {replay.isError ? (
          <p className="field-error" role="alert">
            Run again failed: {describeError(replay.error)}
          </p>
        ) : null}
        {replay.data ? <p className="small">{replay.data.message}</p> : null}
        {replay.data?.outcome ? <CallOutcomeView outcome={replay.data.outcome} /> : null}
      </div>
    </div>
  );
}
