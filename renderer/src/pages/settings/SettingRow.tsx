/**
 * One setting: its label, the contract's description as help, a typed input, the saved value (or
 * "default"), a per-field reset, the host's refusal when it refused this field, and the restart note.
 * Help, saved value and error are tied to the input with aria-describedby so a screen reader hears
 * them with the field.
 */
import { Badge } from '../../components/Badge';
import { describeSaved } from './settings-draft';
import type { SettingField } from './settings-fields';
import { TriStateCheckbox, asTriState } from './TriStateCheckbox';

export interface SettingRowProps {
  field: SettingField;
  saved: unknown;
  /** The input's text (or tri-state) as shown: the person's edit, else the saved value. */
  value: string;
  error?: string;
  restartNote: boolean;
  canReset: boolean;
  onChange(value: string): void;
  onReset(): void;
}

export function inputIdOf(key: string): string {
  return `setting-${key}`;
}

/** " 1–65535" for a bounded number, nothing when either bound is missing. */
function rangeText(min: number | undefined, max: number | undefined): string {
  return min !== undefined && max !== undefined ? ` ${min}–${max}` : '';
}

function kindHint(field: SettingField): string {
  switch (field.kind) {
    case 'boolean':
      return 'each click or Space: default → on → off';
    case 'number':
      return `${field.integer ? 'whole number' : 'number'}${rangeText(field.min, field.max)}`;
    case 'url':
      return 'URL';
    case 'text':
      return 'text';
  }
}

function Control(props: SettingRowProps & { id: string; describedBy: string }): React.JSX.Element {
  const { field, id, describedBy } = props;
  const invalid = props.error ? true : undefined;
  if (field.kind === 'boolean') {
    return (
      <TriStateCheckbox
        id={id}
        value={asTriState(props.value)}
        describedBy={describedBy}
        invalid={invalid}
        onChange={props.onChange}
      />
    );
  }
  return (
    <input
      id={id}
      // type=url is left out: the host validates URLs and names the field, the browser's own check would only pre-empt
      // it.
      type={field.kind === 'number' ? 'number' : 'text'}
      inputMode={field.kind === 'number' ? 'numeric' : field.kind === 'url' ? 'url' : undefined}
      step={field.kind === 'number' ? (field.integer ? 1 : 'any') : undefined}
      min={field.min}
      max={field.max}
      spellCheck={false}
      autoComplete="off"
      placeholder="default"
      className="setting-input"
      aria-describedby={describedBy}
      aria-invalid={invalid}
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
    />
  );
}

export function SettingRow(props: SettingRowProps): React.JSX.Element {
  const { field } = props;
  const id = inputIdOf(field.key);
  const describedBy = [
    `${id}-help`,
    `${id}-saved`,
    props.error ? `${id}-error` : '',
    props.restartNote ? `${id}-restart` : '',
  ]
    .filter(Boolean)
    .join(' ');
  const saved = describeSaved(field, props.saved);
  return (
    <div className={`setting-row${props.error ? ' has-error' : ''}`} data-testid={`setting-${field.key}`}>
      <div className="setting-text">
        <label htmlFor={id} className="setting-label">
          <span>{field.label}</span> <code className="muted small">{field.key}</code>
        </label>
        <p id={`${id}-help`} className="help">
          {field.help}
        </p>
      </div>
      <div className="setting-control">
        <div className="row">
          <Control {...props} id={id} describedBy={describedBy} />
          <button
            type="button"
            className="secondary"
            aria-disabled={props.canReset ? undefined : true}
            onClick={() => props.canReset && props.onReset()}
          >
            Reset to default<span className="visually-hidden"> ({field.label})</span>
          </button>
        </div>
        <p id={`${id}-saved`} className="muted small setting-saved">
          Saved:{' '}
          {saved === 'default' ? (
            <em data-testid={`${id}-saved`}>default</em>
          ) : (
            <code data-testid={`${id}-saved`}>{saved}</code>
          )}
          <span className="setting-kind"> · {kindHint(field)}</span>
        </p>
        {props.restartNote ? (
          <p id={`${id}-restart`} className="setting-restart" data-testid={`${id}-restart`}>
            <Badge tone="warn">applies after a restart</Badge>
          </p>
        ) : null}
        {props.error ? (
          <p id={`${id}-error`} className="field-error" role="alert" data-testid={`${id}-error`}>
            {props.error}
          </p>
        ) : null}
      </div>
    </div>
  );
}
