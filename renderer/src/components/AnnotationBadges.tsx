/** A tool's annotations (read-only, destructive, …) as badges; hints that are off are not shown. */
import type { Annotations } from '../../../shared/contract';
import { Badge, type BadgeTone } from './Badge';

const LABELS: Array<[keyof Annotations, string, BadgeTone, string]> = [
  ['readOnlyHint', 'read-only', 'good', 'Does not change anything'],
  ['destructiveHint', 'destructive', 'bad', 'May delete or overwrite data; asks for approval'],
  ['idempotentHint', 'idempotent', 'info', 'Repeating the call has no further effect; safe to retry'],
  ['openWorldHint', 'open world', 'neutral', 'Reaches outside the host (network, devices)'],
  ['sensitiveAction', 'sensitive', 'warn', 'Touches sensitive data or settings'],
];

export function AnnotationBadges(props: { annotations: Annotations; selfGated?: boolean }): React.JSX.Element {
  return (
    <span className="badges">
      {LABELS.filter(([key]) => props.annotations[key]).map(([key, label, tone, title]) => (
        <Badge key={key} tone={tone} title={title}>
          {label}
        </Badge>
      ))}
      {props.selfGated ? (
        <Badge tone="info" title="Has its own command-level gate; the tool-level prompt is skipped">
          self-gated
        </Badge>
      ) : null}
    </span>
  );
}
