/**
 * Which toolsets a client may use: a checkbox per toolset with its size in a tools/list answer, and
 * the total a client would list with them all on. The always-on toolset (the toolset tools) is not
 * offered: every client has it.
 */
import type { ToolsetSummary } from '../../../shared/contract';
import { formatBytes } from './byte-size';

export function defaultToolsets(toolsets: readonly ToolsetSummary[]): string[] {
  return toolsets.filter((t) => t.inDefaultProfile && !t.alwaysOn).map((t) => t.name);
}

function ToolsetChoice(props: {
  toolset: ToolsetSummary;
  checked: boolean;
  onToggle(on: boolean): void;
}): React.JSX.Element {
  const t = props.toolset;
  return (
    <label title={t.summary}>
      <input type="checkbox" checked={props.checked} onChange={(e) => props.onToggle(e.target.checked)} />{' '}
      <code>{t.name}</code> <span className="muted small">{formatBytes(t.bytes)}</span>
    </label>
  );
}

export function ToolsetPicker(props: {
  toolsets: readonly ToolsetSummary[];
  value: readonly string[];
  onChange(next: string[]): void;
  legend: string;
}): React.JSX.Element {
  const { toolsets, value } = props;
  const choosable = toolsets.filter((t) => !t.alwaysOn);
  const total = toolsets.filter((t) => t.alwaysOn || value.includes(t.name)).reduce((sum, t) => sum + t.bytes, 0);
  const toggle = (name: string, on: boolean) =>
    props.onChange(on ? [...value.filter((n) => n !== name), name] : value.filter((n) => n !== name));
  return (
    <fieldset className="toolset-picker">
      <legend>{props.legend}</legend>
      {choosable.map((t) => (
        <ToolsetChoice
          key={t.name}
          toolset={t}
          checked={value.includes(t.name)}
          onToggle={(on) => toggle(t.name, on)}
        />
      ))}
      <p className="muted small" data-testid="toolset-total">
        With these, a session lists {formatBytes(total)} of tools; it can never turn on a toolset not ticked here.
      </p>
    </fieldset>
  );
}
