/** One installed skill: what it is, where it came from, its tools, its SKILL.md, a switch and Remove. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SkillView } from '../../../../shared/contract';
import { describeError } from '../../api/host-request-error';
import { Badge } from '../../components/Badge';
import { CallOutcomeView } from '../../components/CallOutcomeView';
import { RiskBadge } from '../../components/RiskBadge';
import { useApi } from '../../state/api-context';
import { queryKeys } from '../../state/query-keys';

const STATE_TONE = { enabled: 'good', disabled: 'neutral', broken: 'bad' } as const;
const TOOL_TONE = { registered: 'good', disabled: 'neutral', unavailable: 'warn' } as const;

export function SkillCard(props: { skill: SkillView }): React.JSX.Element {
  const { skill } = props;
  const api = useApi();
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: queryKeys.skills });
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => api.setSkillEnabled({ name: skill.name, enabled }),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: () => api.callTool({ toolId: 'skill_uninstall', args: { name: skill.name } }),
    onSettled: refresh,
  });
  const titleId = `skill-${skill.name}`;
  return (
    <article className="card skill-card" aria-labelledby={titleId} data-testid="skill-card">
      <header className="row spread">
        <h3 id={titleId}>
          <code>{skill.name}</code>
        </h3>
        <span className="badges">
          <Badge tone={STATE_TONE[skill.state]}>{skill.state}</Badge>
          <Badge tone="info">{skill.origin}</Badge>
          {skill.license ? <Badge>{skill.license}</Badge> : null}
        </span>
      </header>
      <p>{skill.description}</p>
      {skill.problem ? <p className="bad-text">{skill.problem}</p> : null}
      <p className="muted small wrap">
        From <code>{skill.source}</code> · {skill.files} file{skill.files === 1 ? '' : 's'} · installed{' '}
        {new Date(skill.installedAt).toLocaleString()}
      </p>
      {skill.tools.length > 0 ? (
        <ul className="plain-list" aria-label={`Tools of ${skill.name}`}>
          {skill.tools.map((t) => (
            <li key={t.id} className="row">
              <code>{t.callAs}</code>
              <span className="badges">
                <Badge tone={TOOL_TONE[t.state]}>{t.state}</Badge>
                <Badge>{t.kind}</Badge>
                {t.risk ? <RiskBadge risk={t.risk} /> : null}
              </span>
              <span className="muted small">{t.reason ?? t.description}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted small">Instructions only: it brings no tools.</p>
      )}
      <details>
        <summary>Read SKILL.md</summary>
        <pre className="json-block" aria-label={`SKILL.md of ${skill.name}`}>
          {skill.skillMd}
        </pre>
      </details>
      <div className="row">
        <button
          type="button"
          className="secondary"
          disabled={toggle.isPending || skill.state === 'broken'}
          onClick={() => toggle.mutate(skill.state !== 'enabled')}
        >
          {skill.state === 'enabled' ? `Disable ${skill.name}` : `Enable ${skill.name}`}
        </button>
        <button type="button" className="danger" disabled={remove.isPending} onClick={() => remove.mutate()}>
          {remove.isPending ? 'Waiting for approval…' : `Remove ${skill.name}`}
        </button>
      </div>
      <div aria-live="polite">
        {toggle.error ? <p className="bad-text">{describeError(toggle.error)}</p> : null}
        {remove.error ? <p className="bad-text">{describeError(remove.error)}</p> : null}
        {remove.data && !remove.data.ok ? <CallOutcomeView outcome={remove.data} /> : null}
      </div>
    </article>
  );
}
