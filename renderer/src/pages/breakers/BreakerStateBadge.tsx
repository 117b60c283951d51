/** A breaker's state as a badge. */
import type { BreakerView } from '../../../../shared/contract';
import { Badge, type BadgeTone } from '../../components/Badge';

const TONE: Record<BreakerView['state'], BadgeTone> = { CLOSED: 'good', OPEN: 'bad', HALF_OPEN: 'warn' };
const TITLE: Record<BreakerView['state'], string> = {
  CLOSED: 'Calls pass normally',
  OPEN: 'Calls are refused until the cooldown ends',
  HALF_OPEN: 'The next call is a probe: success closes, failure reopens',
};

export function BreakerStateBadge(props: { state: BreakerView['state'] }): React.JSX.Element {
  return (
    <Badge tone={TONE[props.state]} title={TITLE[props.state]}>
      {props.state}
    </Badge>
  );
}
