/** Downloads a call's bug report: its whole story as one JSON file, without argument text. */
import { useMutation } from '@tanstack/react-query';
import { describeError } from '../../api/host-request-error';
import { useApi } from '../../state/api-context';

export function CallReportButton(props: { callId: string }): React.JSX.Element {
  const api = useApi();
  const report = useMutation({
    mutationFn: async () => {
      const data = await api.callReport({ callId: props.callId });
      const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `toolgate-call-${props.callId}.json`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 30_000);
    },
  });
  return (
    <>
      <button
        type="button"
        className="secondary"
        onClick={() => report.mutate()}
        disabled={report.isPending}
        title={
          "The call's spans, breaker transitions, approvals, environment " +
          'and versions as one JSON file, without argument text'
        }
      >
        {report.isPending ? 'Preparing…' : 'Bug report'}
      </button>
      {report.isError ? (
        <span className="field-error" role="alert">
          Bug report failed: {describeError(report.error)}
        </span>
      ) : null}
    </>
  );
}
