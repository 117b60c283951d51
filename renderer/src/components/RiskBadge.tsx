/** A tool's risk level as a badge. */
import type { ToolSummary } from '../../../shared/contract';
import { Badge, type BadgeTone } from './Badge';

const TONE: Record<ToolSummary['risk'], BadgeTone> = { LOW: 'good', MEDIUM: 'warn', HIGH: 'bad' };

export function RiskBadge(props: { risk: ToolSummary['risk'] }): React.JSX.Element {
  return (
    <Badge tone={TONE[props.risk]} title={`Risk: ${props.risk}`}>
      {props.risk} risk
    </Badge>
  );
}
