/**
 * A tool call's result as a person reads it: success with its text (JSON pretty-printed), images
 * and structured data; or the error's code, message and the hint the model gets.
 */
import type { CallOutcome, Content } from '../../../shared/contract';
import { hrefFor } from '../router/hash-route';
import { Badge } from './Badge';
import { JsonBlock } from './JsonBlock';

function asJson(text: string): unknown {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return undefined;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
}

function ContentItem(props: { item: Content; index: number }): React.JSX.Element {
  const { item } = props;
  if (item.type === 'image') {
    return (
      <img
        className="result-image"
        src={`data:${item.mimeType};base64,${item.data}`}
        alt={`Result ${props.index + 1} (${item.mimeType})`}
      />
    );
  }
  const json = asJson(item.text);
  if (json !== undefined) return <JsonBlock value={json} label={`Result ${props.index + 1} (JSON)`} maxHeight={420} />;
  return (
    <pre className="result-text" tabIndex={0} aria-label={`Result ${props.index + 1} (text)`}>
      {item.text}
    </pre>
  );
}

export function CallOutcomeView(props: { outcome: CallOutcome }): React.JSX.Element {
  const { outcome } = props;
  return (
    <section
      className={`call-outcome ${outcome.ok ? 'ok' : 'failed'}`}
      aria-label="Call result"
      data-testid="call-outcome"
    >
      <header className="row">
        {outcome.ok ? <Badge tone="good">Success</Badge> : <Badge tone="bad">{outcome.error?.code ?? 'Error'}</Badge>}
        <a href={hrefFor('traces', outcome.callId)} className="muted">
          call {outcome.callId}
        </a>
      </header>
      {outcome.error ? (
        <div className="error-detail-block">
          <p className="error-message">{outcome.error.message}</p>
          <p className="hint">
            <strong>Hint:</strong> {outcome.error.hint}
          </p>
          {outcome.error.data ? <JsonBlock value={outcome.error.data} label="Error data" /> : null}
        </div>
      ) : null}
      {outcome.content.map((item, i) => (
        <ContentItem key={i} item={item} index={i} />
      ))}
      {outcome.ok && outcome.structured !== undefined ? (
        <details>
          <summary>Structured result</summary>
          <JsonBlock value={outcome.structured} label="Structured result" maxHeight={420} />
        </details>
      ) : null}
      {outcome.ok && outcome.content.length === 0 && outcome.structured === undefined ? (
        <p className="muted">The tool returned no content.</p>
      ) : null}
    </section>
  );
}
