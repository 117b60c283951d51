/** Exports the spans matching the filter as a JSON file download (the host's exportSpans). */
import type { RendererApi } from '../../../../shared/contract';
import type { SpanFilter } from '../../state/query-keys';

export async function downloadSpans(api: RendererApi, filter: SpanFilter): Promise<number> {
  const data = await api.exportSpans({ ...filter, limit: 10_000 });
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `toolgate-spans-${new Date(data.exportedAt).toISOString().replace(/[:.]/g, '-')}.json`;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by now; the URL only keeps the blob alive.
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
  return data.spans.length;
}
