/**
 * The settings form: grouped fields, Save (sends only the changed keys), Discard, and a reset per
 * field (sends null for that key at once). A refused save keeps every input as typed and shows the
 * host's message next to each field it named, then moves focus to the first of them.
 *
 * Buttons that have nothing to do are aria-disabled rather than disabled, so a keyboard user who
 * just saved keeps focus on the button instead of having it dropped to the page.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { MethodOutput, Settings } from '../../../../shared/contract';
import { describeError } from '../../api/host-request-error';
import { useApi } from '../../state/api-context';
import { queryKeys } from '../../state/query-keys';
import {
  type Drafts,
  type FieldErrors,
  appliesAfterRestart,
  changesFrom,
  draftOf,
  fieldErrorsFrom,
  without,
} from './settings-draft';
import { type SettingKey, SETTING_KEYS, settingGroups } from './settings-fields';
import { SettingRow, inputIdOf } from './SettingRow';

type SettingsView = MethodOutput<'getSettings'>;

interface Outcome {
  tone: 'good' | 'bad';
  text: string;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function fieldsOf(error: unknown): string[] {
  const fields = (error as { fields?: unknown } | null)?.fields;
  return Array.isArray(fields) ? fields.map(String) : [];
}

export function SettingsForm(props: { view: SettingsView }): React.JSX.Element {
  const { settings, restartRequired } = props.view;
  const api = useApi();
  const client = useQueryClient();
  const groups = useMemo(() => settingGroups(), []);
  const fields = useMemo(() => groups.flatMap((g) => g.fields), [groups]);
  // What the running host most likely uses: the values when the page opened.
  const [opened] = useState<Settings>(settings);
  const [drafts, setDrafts] = useState<Drafts>({});
  const [errors, setErrors] = useState<FieldErrors>({});
  const [outcome, setOutcome] = useState<Outcome>();
  const update = useMutation({ mutationFn: (changes: Record<string, unknown>) => api.updateSettings({ changes }) });

  const changes = changesFrom(fields, settings, drafts);
  const changedCount = Object.keys(changes).length;
  const unset = SETTING_KEYS.every((k) => settings[k] === undefined);

  function send(toSend: Record<string, unknown>, sentDrafts: Drafts, done: (result: SettingsView) => string): void {
    if (update.isPending) return;
    const keys = Object.keys(toSend) as SettingKey[];
    setOutcome(undefined);
    update.mutate(toSend, {
      onSuccess: (result) => {
        client.setQueryData(queryKeys.settings, result);
        // An input edited again while the request was out keeps the newer text.
        setDrafts((d) => {
          const next = { ...d };
          for (const k of keys) if (next[k] === sentDrafts[k]) delete next[k];
          return next;
        });
        setErrors((e) => without(e, keys));
        setOutcome({ tone: 'good', text: done(result) });
      },
      onError: (error) => {
        const message = error instanceof Error ? error.message : String(error);
        const refused = fieldErrorsFrom(message, SETTING_KEYS, fieldsOf(error));
        const named = Object.keys(refused) as SettingKey[];
        setErrors((e) => ({ ...e, ...refused }));
        setOutcome({
          tone: 'bad',
          text: named.length
            ? `Nothing was saved: the host refused ${plural(named.length, 'setting')}. Fix the ` +
              `marked ${named.length === 1 ? 'field' : 'fields'} and save again.`
            : `Nothing was saved: ${describeError(error)}`,
        });
        const first = fields.find((f) => refused[f.key]);
        if (first) document.getElementById(inputIdOf(first.key))?.focus();
      },
    });
  }

  function save(): void {
    if (changedCount === 0) {
      setOutcome({ tone: 'good', text: 'Nothing to save: no setting was changed.' });
      return;
    }
    send(changes, drafts, (result) => {
      const later = Object.keys(changes).filter(
        (k) => restartRequired.includes(k) && result.settings[k as SettingKey] !== settings[k as SettingKey],
      ).length;
      const afterRestart = later ? ` ${later === 1 ? 'One applies' : `${later} apply`} after a restart.` : '';
      return `Saved ${plural(changedCount, 'setting')}.${afterRestart}`;
    });
  }

  function reset(key: SettingKey, label: string): void {
    setErrors((e) => without(e, [key]));
    setDrafts((d) => without(d, [key]));
    // With nothing saved for the key, dropping the unsaved edit is the whole reset.
    if (settings[key] !== undefined) send({ [key]: null }, {}, () => `${label} returned to its default.`);
  }

  function discard(): void {
    setDrafts({});
    setErrors({});
    setOutcome(undefined);
  }

  return (
    <form
      className="settings-form"
      noValidate
      aria-label="Settings"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      {unset ? (
        <p className="muted" data-testid="settings-all-default">
          Every setting uses its default. Change one below and save; empty fields keep their defaults.
        </p>
      ) : null}
      {groups.map((group) => (
        <fieldset key={group.id} className="card settings-group" data-testid={`settings-group-${group.id}`}>
          <legend>{group.title}</legend>
          {group.fields.map((field) => {
            const value = drafts[field.key] ?? draftOf(field, settings[field.key]);
            return (
              <SettingRow
                key={field.key}
                field={field}
                saved={settings[field.key]}
                value={value}
                error={errors[field.key]}
                restartNote={appliesAfterRestart(field.key, opened, settings, restartRequired)}
                canReset={
                  !update.isPending && (settings[field.key] !== undefined || value !== draftOf(field, undefined))
                }
                onChange={(v) => {
                  setDrafts((d) => ({ ...d, [field.key]: v }));
                  // The refusal was about the old text; once it is edited the message would mislead.
                  setErrors((e) => without(e, [field.key]));
                }}
                onReset={() => reset(field.key, field.label)}
              />
            );
          })}
        </fieldset>
      ))}
      <div className="settings-actions">
        <button type="submit" aria-disabled={changedCount === 0 || update.isPending ? true : undefined}>
          {update.isPending ? 'Saving…' : 'Save'}
        </button>
        <button
          type="button"
          className="secondary"
          aria-disabled={Object.keys(drafts).length === 0 ? true : undefined}
          onClick={discard}
        >
          Discard changes
        </button>
        <span className="muted small" data-testid="settings-unsaved">
          {changedCount ? `${plural(changedCount, 'unsaved change')}` : 'No unsaved changes'}
        </span>
        <p
          role="status"
          aria-live="polite"
          className={`settings-outcome ${outcome?.tone === 'bad' ? 'bad-text' : ''}`}
          data-testid="settings-outcome"
        >
          {outcome?.text ?? ''}
        </p>
      </div>
    </form>
  );
}
