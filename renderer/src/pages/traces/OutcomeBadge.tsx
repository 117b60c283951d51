/** A span's outcome as a badge. */
import type { Span } from '../../../../shared/contract';
import { Badge, type BadgeTone } from '../../components/Badge';

const TONE: Record<Span['outcome'], BadgeTone> = { success: 'good', error: 'bad', cancelled: 'warn' };

export function OutcomeBadge(props: { outcome: Span['outcome'] }): React.JSX.Element {
  return <Badge tone={TONE[props.outcome]}>{props.outcome}</Badge>;
}
