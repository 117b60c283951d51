/** One tool: what it does, its risk and annotations, and the Try-it form. */
import type { ToolSummary } from '../../../../shared/contract';
import { AnnotationBadges } from '../../components/AnnotationBadges';
import { Badge } from '../../components/Badge';
import { RiskBadge } from '../../components/RiskBadge';
import { hrefFor } from '../../router/hash-route';
import { TryIt } from './TryIt';

export function ToolDetail(props: { tool: ToolSummary }): React.JSX.Element {
  const { tool } = props;
  return (
    <div className="tool-detail">
      <section className="card" aria-labelledby="tool-title">
        <h2 id="tool-title">
          {tool.title} <code className="muted">{tool.id}</code>
        </h2>
        <p className="badges">
          <RiskBadge risk={tool.risk} />
          <Badge>{tool.category}</Badge>
          {tool.toolset ? <Badge>toolset {tool.toolset}</Badge> : null}
          <AnnotationBadges annotations={tool.annotations} selfGated={tool.selfGated} />
        </p>
        <p className="description">{tool.description}</p>
        {tool.tags.length ? <p className="muted small">Tags: {tool.tags.join(', ')}</p> : null}
        <p className="small">
          <a href={hrefFor('latency', tool.id)}>Latency</a> · <a href={hrefFor('traces')}>Traces</a>
        </p>
      </section>
      <TryIt key={tool.id} tool={tool} />
    </div>
  );
}
