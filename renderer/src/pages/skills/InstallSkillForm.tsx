/** Install a skill: a workspace folder or archive, or an https URL, through skill_install (which asks for approval). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { CallOutcomeView } from '../../components/CallOutcomeView';
import { ErrorState } from '../../components/ErrorState';
import { useApi } from '../../state/api-context';
import { queryKeys } from '../../state/query-keys';

export function InstallSkillForm(): React.JSX.Element {
  const api = useApi();
  const client = useQueryClient();
  const id = useId();
  const [source, setSource] = useState('');
  const [replace, setReplace] = useState(false);
  const install = useMutation({
    mutationFn: (v: { source: string; replace: boolean }) =>
      api.callTool({ toolId: 'skill_install', args: { source: v.source, replace: v.replace } }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.skills }),
  });
  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Install a skill</h2>
      <form
        className="row skill-install"
        onSubmit={(e) => {
          e.preventDefault();
          if (source.trim()) install.mutate({ source: source.trim(), replace });
        }}
      >
        <label className="grow" htmlFor={`${id}-source`}>
          Workspace folder or archive (.zip, .skill, .tar.gz), or an https:// URL
          <input
            id={`${id}-source`}
            type="text"
            value={source}
            placeholder="skills/my-skill or https://example.com/my-skill.zip"
            maxLength={2000}
            onChange={(e) => setSource(e.target.value)}
          />
        </label>
        <label className="inline-check" htmlFor={`${id}-replace`}>
          <input
            id={`${id}-replace`}
            type="checkbox"
            checked={replace}
            onChange={(e) => setReplace(e.target.checked)}
          />
          Replace an installed skill of the same name
        </label>
        <button type="submit" disabled={install.isPending || !source.trim()}>
          {install.isPending ? 'Waiting for approval…' : 'Install'}
        </button>
      </form>
      <p className="muted small">
        The skill is checked before anything is written: its front matter, names, sizes, and that the archive holds only
        files and folders inside it. Nothing in it runs.
      </p>
      <div aria-live="polite">
        {install.isError ? <ErrorState what="the install" error={install.error} /> : null}
        {install.data ? <CallOutcomeView outcome={install.data} /> : null}
      </div>
    </section>
  );
}
