/**
 * Latency: per-tool percentiles and histograms. The host's statistics are folded forward with
 * every incoming span, so the page is live between refetches; Refresh reloads the host's figures.
 */
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useUsage } from '../../state/queries';
import { LatencyDetail } from './LatencyDetail';
import { LatencyTable } from './LatencyTable';

export function LatencyPage(props: { selectedId: string | undefined }): React.JSX.Element {
  const usage = useUsage();
  return (
    <>
      <PageHeader
        title="Latency"
        description={
          'Calls and attempts apart, how calls ended, and how long each tool runs (refused calls never ran ' +
          'and are not in the run times). Percentiles are estimated from the histogram buckets.'
        }
        actions={
          <button type="button" className="secondary" onClick={() => void usage.refetch()} disabled={usage.isFetching}>
            {usage.isFetching ? 'Refreshing…' : 'Refresh'}
          </button>
        }
      />
      <QueryState
        query={usage}
        what="usage statistics"
        isEmpty={(s) => s.every((x) => x.calls === 0)}
        empty={<EmptyState title="No calls recorded yet.">Latency appears here after the first tool call.</EmptyState>}
      >
        {(stats) => {
          const used = stats.filter((s) => s.calls > 0);
          const asked = props.selectedId ? used.find((s) => s.toolId === props.selectedId) : undefined;
          const selected = props.selectedId ? asked : [...used].sort((a, b) => b.calls - a.calls)[0];
          return (
            <div className="split latency-split">
              <LatencyTable stats={used} selectedId={selected?.toolId} />
              {selected ? (
                <LatencyDetail stats={selected} />
              ) : (
                <EmptyState title={`No calls of ${props.selectedId ?? 'this tool'} recorded yet.`}>
                  Its latency appears here after its first call. Pick another tool from the table.
                </EmptyState>
              )}
            </div>
          );
        }}
      </QueryState>
    </>
  );
}
