/** A shortcut's steps: which tool, with which argument template. */
import type { ShortcutDefinition } from '../../../../shared/contract';

export function StepList(props: { steps: ShortcutDefinition['steps'] }): React.JSX.Element {
  return (
    <ol className="step-list">
      {props.steps.map((s, i) => (
        <li key={i}>
          <code>{s.tool}</code>
          {Object.keys(s.args).length ? <code className="muted small wrap"> {JSON.stringify(s.args)}</code> : null}
        </li>
      ))}
    </ol>
  );
}
