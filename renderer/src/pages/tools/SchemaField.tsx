/** One generated form field: a labelled input that fits the schema type, with its help text. */
import type { FormField, FormValue } from './schema-form-model';

/** A value the person can pick instead of typing (the attached devices for `serial`). */
export interface FieldChoice {
  value: string;
  label: string;
}

export interface SchemaFieldProps {
  field: FormField;
  value: FormValue;
  error?: string;
  idPrefix: string;
  /** Offered as a select; a value already set that is not among them stays selectable. */
  choices?: readonly FieldChoice[];
  onChange(value: FormValue): void;
}

function placeholderOf(field: FormField): string | undefined {
  if (field.defaultValue === undefined) return field.kind === 'json' ? 'JSON, e.g. ["a"] or {"k": 1}' : undefined;
  const d = typeof field.defaultValue === 'string' ? field.defaultValue : JSON.stringify(field.defaultValue);
  return `default: ${d}`;
}

function Control(props: SchemaFieldProps & { id: string; describedBy: string | undefined }): React.JSX.Element {
  const { field, value, id, describedBy } = props;
  const common = {
    id,
    'aria-describedby': describedBy,
    'aria-required': field.required,
    'aria-invalid': props.error ? true : undefined,
  };
  const text = typeof value === 'string' ? value : '';
  if (props.choices && (field.kind === 'string' || field.kind === 'text')) {
    const listed = props.choices.some((c) => c.value === text);
    return (
      <select {...common} value={text} onChange={(e) => props.onChange(e.target.value)}>
        <option value="">
          {field.defaultValue === undefined ? '(not set)' : `(default: ${String(field.defaultValue)})`}
        </option>
        {props.choices.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
        {text && !listed ? <option value={text}>{text} (not attached now)</option> : null}
      </select>
    );
  }
  switch (field.kind) {
    case 'boolean':
      if (field.required)
        return (
          <input
            type="checkbox"
            {...common}
            checked={value === true}
            onChange={(e) => props.onChange(e.target.checked)}
          />
        );
      return (
        <select {...common} value={text} onChange={(e) => props.onChange(e.target.value)}>
          <option value="">
            {field.defaultValue === undefined ? '(not set)' : `(default: ${String(field.defaultValue)})`}
          </option>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      );
    case 'enum':
      return (
        <select {...common} value={text} onChange={(e) => props.onChange(e.target.value)}>
          <option value="">
            {field.defaultValue === undefined ? '(not set)' : `(default: ${String(field.defaultValue)})`}
          </option>
          {field.options?.map((o) => (
            <option key={String(o)} value={String(o)}>
              {String(o)}
            </option>
          ))}
        </select>
      );
    case 'number':
    case 'integer':
      return (
        <input
          type="number"
          inputMode={field.kind === 'integer' ? 'numeric' : 'decimal'}
          step={field.kind === 'integer' ? 1 : 'any'}
          min={field.minimum}
          max={field.maximum}
          placeholder={placeholderOf(field)}
          {...common}
          value={text}
          onChange={(e) => props.onChange(e.target.value)}
        />
      );
    case 'text':
    case 'json':
      return (
        <textarea
          rows={field.kind === 'json' ? 4 : 3}
          spellCheck={false}
          placeholder={placeholderOf(field)}
          {...common}
          value={text}
          onChange={(e) => props.onChange(e.target.value)}
          className={field.kind === 'json' ? 'mono' : undefined}
        />
      );
    default:
      return (
        <input
          type="text"
          spellCheck={false}
          placeholder={placeholderOf(field)}
          {...common}
          value={text}
          onChange={(e) => props.onChange(e.target.value)}
        />
      );
  }
}

export function SchemaField(props: SchemaFieldProps): React.JSX.Element {
  const { field } = props;
  const id = `${props.idPrefix}-${field.name}`;
  const helpId = field.description ? `${id}-help` : undefined;
  const errorId = props.error ? `${id}-error` : undefined;
  const describedBy = [helpId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`form-field kind-${field.kind}`}>
      <label htmlFor={id}>
        <code>{field.name}</code>
        {field.required ? (
          <span className="required" aria-hidden="true" title="required">
            {' '}
            *
          </span>
        ) : null}
        <span className="muted small">
          {' '}
          {field.kind === 'json' ? 'JSON' : field.kind === 'text' ? 'string' : field.kind}
        </span>
      </label>
      <Control {...props} id={id} describedBy={describedBy} />
      {field.description ? (
        <p id={helpId} className="help">
          {field.description}
        </p>
      ) : null}
      {props.error ? (
        <p id={errorId} className="field-error" role="alert">
          {props.error}
        </p>
      ) : null}
    </div>
  );
}
