/** Downloads the filtered spans as JSON and says how many went into the file. */
import { useMutation } from '@tanstack/react-query';
import { describeError } from '../../api/host-request-error';
import { useApi } from '../../state/api-context';
import type { SpanFilter } from '../../state/query-keys';
import { downloadSpans } from './export-spans';

export function ExportButton(props: { filter: SpanFilter }): React.JSX.Element {
  const api = useApi();
  const exporter = useMutation({ mutationFn: () => downloadSpans(api, props.filter) });
  return (
    <span className="row">
      <button type="button" className="secondary" onClick={() => exporter.mutate()} disabled={exporter.isPending}>
        {exporter.isPending ? 'Exporting…' : 'Export JSON'}
      </button>
      <span aria-live="polite" className="muted small">
        {exporter.isSuccess
          ? `Exported ${exporter.data} spans.`
          : exporter.isError
            ? `Export failed: ${describeError(exporter.error)}`
            : ''}
      </span>
    </span>
  );
}
