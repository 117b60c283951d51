/** Pretty-printed JSON in a scrollable, labelled block. */
import { prettyJson } from './format';

export function JsonBlock(props: { value: unknown; label: string; maxHeight?: number }): React.JSX.Element {
  return (
    <pre
      className="json-block"
      aria-label={props.label}
      tabIndex={0}
      style={props.maxHeight ? { maxHeight: props.maxHeight } : undefined}
    >
      {prettyJson(props.value)}
    </pre>
  );
}
