/**
 * The GitHub section of Settings: whether a token is set and where it comes from, a field to set
 * one (it is sent once and never shown again: the host answers only "set" or "not set"), and
 * Remove. The API URL (GitHub Enterprise) is the githubApiUrl setting in the form below.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
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
  const [token, setToken] = useState('');
  const save = useMutation({
    mutationFn: (value: string | null) => api.setGithubToken({ token: value }),
    onSuccess: (next) => {
      client.setQueryData(queryKeys.github, next);
      setToken('');
    },
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.tools }),
  });
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
                ? 'the seven GitHub tools are available to agents'
                : 'the GitHub tools appear once a token is set'}
            </p>
            <form
              className="row"
              onSubmit={(e) => {
                e.preventDefault();
                if (token.trim()) save.mutate(token.trim());
              }}
            >
              <label htmlFor={`${id}-token`}>
                {s.source === 'stored' ? 'Replace the token' : 'Personal access token'}
                <input
                  id={`${id}-token`}
                  type="password"
                  autoComplete="off"
                  spellCheck={false}
                  value={token}
                  maxLength={255}
                  placeholder="ghp_… or github_pat_…"
                  onChange={(e) => setToken(e.target.value)}
                />
              </label>
              <button type="submit" disabled={save.isPending || !token.trim()}>
                Set token
              </button>
              {s.source === 'stored' ? (
                <button type="button" className="secondary" disabled={save.isPending} onClick={() => save.mutate(null)}>
                  Remove token
                </button>
              ) : null}
            </form>
            <p className="muted small">
              Once set, the token is never shown again, nor written to traces, logs or exports. Writes
              (github_write_file, github_create_issue) still ask for your approval each time.
            </p>
            {save.error ? (
              <p className="bad-text" role="alert">
                {describeError(save.error)}
              </p>
            ) : null}
          </>
        )}
      </QueryState>
    </section>
  );
}
