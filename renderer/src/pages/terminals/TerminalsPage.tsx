/**
 * Terminals: every open terminal, whoever opened it (an agent's MCP client, or you), on which backend
 * (the sandbox, this machine, a phone), and in what state; the selected one live. Read-only by
 * default: "Take control" lets you type (the agent waits), "Hand back" returns it. The agent's
 * terminal.run commands are listed and linked to their traces.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TerminalView } from '../../../../shared/contract';
import { Badge } from '../../components/Badge';
import { EmptyState } from '../../components/EmptyState';
import { formatAgo } from '../../components/format';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useNow } from '../../components/use-now';
import { hrefFor } from '../../router/hash-route';
import { useApi } from '../../state/api-context';
import { useTerminals } from '../../state/queries';
import { queryKeys } from '../../state/query-keys';
import { TerminalScreen } from './TerminalScreen';
import '../../styles/terminals.css';

function backendLabel(backend: string): string {
  if (backend === 'sandbox') return 'Sandbox';
  if (backend === 'host') return 'This machine';
  return `Phone ${backend.slice('device:'.length)}`;
}

function TerminalList(props: { terminals: readonly TerminalView[]; selected: string | undefined }): React.JSX.Element {
  return (
    <nav className="card" aria-label="Terminals">
      <h2>
        {props.terminals.length} terminal{props.terminals.length === 1 ? '' : 's'}
      </h2>
      <ul className="plain-list">
        {props.terminals.map((t) => (
          <li key={t.id}>
            <a
              className="device-item"
              href={hrefFor('terminals', t.id)}
              aria-current={t.id === props.selected ? 'true' : undefined}
              data-testid="terminal-item"
            >
              <span className="row spread">
                <strong className="ellipsis">{t.title}</strong>
                <Badge tone={t.state === 'running' ? 'good' : 'neutral'}>{t.state}</Badge>
              </span>
              <span className="small muted">
                {backendLabel(t.backend)} · opened by {t.owner}
                {t.controller === 'person' ? ' · you are typing' : ''}
              </span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function RunList(props: { terminal: TerminalView }): React.JSX.Element | null {
  const runs = [...props.terminal.runs].reverse().slice(0, 10);
  if (runs.length === 0) return null;
  return (
    <section className="card" aria-labelledby="runs-title">
      <h2 id="runs-title">Agent’s commands</h2>
      <ul className="plain-list" data-testid="terminal-runs">
        {runs.map((r) => (
          <li key={r.callId} className="row spread">
            <a href={hrefFor('traces', r.callId)} className="mono ellipsis" title={`Trace of call ${r.callId}`}>
              {r.command}
            </a>
            <span className="small muted">
              {r.endedAt === undefined
                ? 'running'
                : r.exitCode === null || r.exitCode === undefined
                  ? 'no exit status'
                  : `exit ${r.exitCode}`}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function SelectedTerminal(props: { terminal: TerminalView }): React.JSX.Element {
  const { terminal } = props;
  const api = useApi();
  const client = useQueryClient();
  const now = useNow(5_000);
  const control = useMutation({
    mutationFn: (on: boolean) => api.terminalControl({ id: terminal.id, on }),
    onSettled: () => void client.invalidateQueries({ queryKey: queryKeys.terminals }),
  });
  const inControl = terminal.controller === 'person';
  return (
    <div className="terminal-main">
      <section className="card" aria-labelledby="terminal-title">
        <div className="row spread">
          <h2 id="terminal-title">{terminal.title}</h2>
          <div className="row">
            <Badge tone={inControl ? 'warn' : 'info'}>{inControl ? 'You are typing' : 'Read-only'}</Badge>
            <button
              type="button"
              className={inControl ? 'secondary' : ''}
              disabled={terminal.state !== 'running' || control.isPending}
              onClick={() => control.mutate(!inControl)}
            >
              {inControl ? 'Hand back to the agent' : 'Take control'}
            </button>
          </div>
        </div>
        <dl className="facts small">
          <dt>Backend</dt>
          <dd>{backendLabel(terminal.backend)}</dd>
          <dt>Where</dt>
          <dd>{terminal.where}</dd>
          <dt>Opened by</dt>
          <dd>
            {terminal.owner} ({terminal.openedBy})
          </dd>
          <dt>State</dt>
          <dd>
            {terminal.state}
            {terminal.state === 'exited' ? ` (exit status ${terminal.exitCode ?? 'unknown'})` : ''}, last active{' '}
            {formatAgo(Math.max(0, now - terminal.lastActivity))}
          </dd>
          {terminal.workspace ? (
            <>
              <dt>Folder</dt>
              <dd className="mono">{terminal.workspace}</dd>
            </>
          ) : null}
          {terminal.network !== undefined ? (
            <>
              <dt>Network</dt>
              <dd>{terminal.network ? 'on' : 'off'}</dd>
            </>
          ) : null}
        </dl>
        <TerminalScreen terminal={terminal} />
      </section>
      <RunList terminal={terminal} />
    </div>
  );
}

export function TerminalsPage(props: { selectedId?: string | undefined }): React.JSX.Element {
  const terminals = useTerminals();
  return (
    <>
      <PageHeader
        title="Terminals"
        description={
          'Terminals agents opened: in the sandbox, on this machine ' +
          'or on a phone. Watch them live; take control to type.'
        }
      />
      <QueryState
        query={terminals}
        what="terminals"
        isEmpty={(list) => list.length === 0}
        empty={
          <EmptyState title="No terminal is open.">
            An agent opens one with terminal.create; it shows here while it is open.
          </EmptyState>
        }
      >
        {(list) => {
          const selected = list.find((t) => t.id === props.selectedId) ?? list[0];
          return (
            <div className="split">
              <TerminalList terminals={list} selected={selected?.id} />
              {selected ? <SelectedTerminal key={selected.id} terminal={selected} /> : null}
            </div>
          );
        }}
      </QueryState>
    </>
  );
}
