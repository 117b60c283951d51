/**
 * A form generated from a JSON Schema, with a raw-JSON mode for arguments the fields cannot
 * express. Submitting hands the arguments to `onSubmit`; only JSON that does not parse is stopped
 * here, everything else is for the pipeline to judge.
 */
import { type FormEvent, useMemo, useState } from 'react';
import { type FieldChoice, SchemaField } from './SchemaField';
import {
  type FormValues,
  buildArgs,
  fieldsFromSchema,
  fitsFields,
  initialValues,
  valuesFromArgs,
} from './schema-form-model';

export interface SchemaFormProps {
  schema: Record<string, unknown>;
  idPrefix: string;
  submitLabel: string;
  busy: boolean;
  /** Arguments to start from (an earlier call's): in the fields when they fit them, else as JSON. */
  initialArgs?: Record<string, unknown>;
  /** Values to pick from, per field name. */
  choices?: Readonly<Record<string, readonly FieldChoice[]>>;
  onSubmit(args: Record<string, unknown>): void;
}

export function SchemaForm(props: SchemaFormProps): React.JSX.Element {
  const fields = useMemo(() => fieldsFromSchema(props.schema), [props.schema]);
  const start = props.initialArgs;
  const startInFields = start === undefined || fitsFields(fields, start);
  const [values, setValues] = useState<FormValues>(() =>
    start && startInFields ? valuesFromArgs(fields, start) : initialValues(fields),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [raw, setRaw] = useState<string | undefined>(() =>
    start && !startInFields ? JSON.stringify(start, null, 2) : undefined,
  );
  const [rawError, setRawError] = useState<string | undefined>(undefined);

  const toggleRaw = () => {
    if (raw === undefined) {
      const built = buildArgs(fields, values);
      setRaw(JSON.stringify(built.ok ? built.args : {}, null, 2));
    } else {
      try {
        const parsed = JSON.parse(raw) as unknown;
        if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
          setValues(valuesFromArgs(fields, parsed as Record<string, unknown>));
      } catch {
        // Unparseable raw text is dropped when going back to the fields.
      }
      setRaw(undefined);
      setRawError(undefined);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (raw !== undefined) {
      try {
        const parsed = JSON.parse(raw || '{}') as unknown;
        if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
        setRawError(undefined);
        props.onSubmit(parsed as Record<string, unknown>);
      } catch {
        setRawError('The arguments must be one JSON object, e.g. {"expression": "1 + 2"}.');
      }
      return;
    }
    const built = buildArgs(fields, values);
    if (!built.ok) return setErrors(built.errors);
    setErrors({});
    props.onSubmit(built.args);
  };

  return (
    <form className="schema-form" onSubmit={submit} aria-label="Arguments">
      {raw !== undefined ? (
        <div className="form-field">
          <label htmlFor={`${props.idPrefix}-raw`}>Arguments (JSON object)</label>
          <textarea
            id={`${props.idPrefix}-raw`}
            className="mono"
            rows={10}
            spellCheck={false}
            value={raw}
            onChange={(e) => setRaw(e.target.value)}
            aria-invalid={rawError ? true : undefined}
          />
          {rawError ? (
            <p className="field-error" role="alert">
              {rawError}
            </p>
          ) : null}
        </div>
      ) : fields.length === 0 ? (
        <p className="muted">This tool takes no arguments.</p>
      ) : (
        fields.map((f) => (
          <SchemaField
            key={f.name}
            field={f}
            idPrefix={props.idPrefix}
            value={values[f.name] ?? ''}
            error={errors[f.name]}
            {...(props.choices?.[f.name] ? { choices: props.choices[f.name] } : {})}
            onChange={(v) => setValues((old) => ({ ...old, [f.name]: v }))}
          />
        ))
      )}
      <div className="row">
        <button type="submit" disabled={props.busy}>
          {props.busy ? 'Running…' : props.submitLabel}
        </button>
        <button type="button" className="secondary" onClick={toggleRaw} aria-pressed={raw !== undefined}>
          {raw === undefined ? 'Edit as JSON' : 'Back to fields'}
        </button>
        {fields.some((f) => f.required) ? (
          <span className="muted small">
            <span className="required">*</span> required
          </span>
        ) : null}
      </div>
    </form>
  );
}
