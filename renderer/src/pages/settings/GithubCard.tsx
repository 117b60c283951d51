/**
 * The GitHub section of Settings: whether a token is set and where it comes from, a field to set
 * one (it is sent once and never shown again: the host answers only "set" or "not set"), and
 * Remove. The API URL (GitHub Enterprise) is the githubApiUrl setting in the form below.
 *
 * The token never enters React state nor the mutation cache: the field is uncontrolled, read once
 * when the form is sent and emptied at once; the page keeps only whether the field has text.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import type { GithubStatus } from '../../../../shared/contract';
import { describeError } from '../../api/host-request-error';
import { Badge } from '../../components/Badge';
import { QueryState } from '../../components/QueryState';
import { useApi } from '../../state/api-context';
import { useGithubStatus } from '../../state/queries';
import { queryKeys } from '../../state/query-keys';

const SOURCE = {
  env: 'from the TOOLGATE_GITHUB_TOKEN environment variable',
  stored: 'stored by you',
  none: 'not set',
} as const;

export function GithubCard(): React.JSX.Element {
  const api = useApi();
  const client = useQueryClient();
  const status = useGithubStatus();
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const [typed, setTyped] = useState(false);
  const settled = {
    onSuccess: (next: GithubStatus) => client.setQueryData(queryKeys.github, next),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.tools }),
  };
  const save = useMutation({
    mutationFn: () => {
      const input = field.current;
      const token = input?.value.trim() ?? '';
      if (input) input.value = '';
      setTyped(false);
      return api.setGithubToken({ token });
    },
    ...settled,
  });
  const remove = useMutation({ mutationFn: () => api.setGithubToken({ token: null }), ...settled });
  const pending = save.isPending || remove.isPending;
  const error = save.error ?? remove.error;
  return (
    <section className="card settings-github" aria-labelledby={`${id}-title`} data-testid="github-settings">
      <h2 id={`${id}-title`}>GitHub</h2>
      <QueryState query={status} what="the GitHub status">
        {(s) => (
          <>
            <p className="row">
              <span>Token:</span>
              <span data-testid="github-token-state">
                <Badge tone={s.tokenSet ? 'good' : 'neutral'}>{s.tokenSet ? 'set' : 'not set'}</Badge>
              </span>
              <span className="muted small">
                {SOURCE[s.source]}
                {s.source === 'stored' ? `, kept in ${s.storage}` : ''}
              </span>
            </p>
            <p className="muted small">
              API: <code>{s.apiUrl}</code> ·{' '}
              {s.registered
                ? 'the seven GitHub tools are in the github toolset; give it to a client on the Overview page'
                : 'the GitHub tools appear once a token is set'}
            </p>
            {s.storageWarning ? (
              <p className="warn-text" data-testid="github-storage-warning">
                <strong>Not in the OS keychain.</strong> {s.storageWarning}
              </p>
            ) : null}
            <form
              className="row"
              onSubmit={(e) => {
                e.preventDefault();
                if (field.current?.value.trim()) save.mutate();
              }}
            >
              <label htmlFor={`${id}-token`}>
                {s.source === 'stored' ? 'Replace the token' : 'Personal access token'}
                <input
                  id={`${id}-token`}
                  type="password"
                  autoComplete="off"
                  spellCheck={false}
                  ref={field}
                  defaultValue=""
                  maxLength={255}
                  placeholder="ghp_… or github_pat_…"
                  onChange={(e) => setTyped(e.target.value.trim() !== '')}
                />
              </label>
              <button type="submit" disabled={pending || !typed}>
                Set token
              </button>
              {s.source === 'stored' ? (
                <button type="button" className="secondary" disabled={pending} onClick={() => remove.mutate()}>
                  Remove token
                </button>
              ) : null}
            </form>
            <p className="muted small">
              Once set, the token is never shown again, nor written to traces, logs or exports. Writes
              (github_write_file, github_create_issue) still ask for your approval each time.
            </p>
            {error ? (
              <p className="bad-text" role="alert">
                {describeError(error)}
              </p>
            ) : null}
          </>
        )}
      </QueryState>
    </section>
  );
}
