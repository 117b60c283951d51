/** The tool catalog: a search box and the tools grouped by category, each with its risk. */
import { useState } from 'react';
import type { ToolSummary } from '../../../../shared/contract';
import { EmptyState } from '../../components/EmptyState';
import { RiskBadge } from '../../components/RiskBadge';
import { hrefFor } from '../../router/hash-route';
import { groupByCategory, matchesSearch } from './catalog-groups';

export function ToolCatalog(props: { tools: ToolSummary[]; selectedId: string | undefined }): React.JSX.Element {
  const [query, setQuery] = useState('');
  const groups = groupByCategory(props.tools.filter((t) => matchesSearch(t, query)));
  return (
    <div className="catalog">
      <label htmlFor="tool-search" className="visually-hidden">
        Search tools
      </label>
      <input
        id="tool-search"
        type="search"
        placeholder="Search tools (id, description, tag)…"
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <p className="muted small" aria-live="polite">
        {groups.reduce((n, g) => n + g.tools.length, 0)} of {props.tools.length} tools
      </p>
      {groups.length === 0 ? (
        <EmptyState title="No tool matches.">Try a shorter search, or a category name such as “files”.</EmptyState>
      ) : (
        groups.map((g) => (
          <section key={g.category} aria-labelledby={`cat-${g.category}`} className="catalog-group">
            <h2 id={`cat-${g.category}`} className="catalog-heading">
              {g.category} <span className="muted small">({g.tools.length})</span>
            </h2>
            <ul className="plain-list">
              {g.tools.map((t) => (
                <li key={t.id}>
                  <a
                    className="catalog-item"
                    href={hrefFor('tools', t.id)}
                    aria-current={t.id === props.selectedId ? 'true' : undefined}
                  >
                    <span className="catalog-id">{t.id}</span>
                    <RiskBadge risk={t.risk} />
                  </a>
                </li>
              ))}
            </ul>
          </section>
        ))
      )}
    </div>
  );
}
