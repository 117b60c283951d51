/**
 * Shortcuts: tool pairs the traces show agents repeat (define one with a click) and the shortcuts
 * already defined, each runnable. Suggestions refresh as new calls arrive.
 */
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useShortcuts } from '../../state/queries';
import { ShortcutCard } from './ShortcutCard';
import { SuggestionCard } from './SuggestionCard';

export function ShortcutsPage(): React.JSX.Element {
  const shortcuts = useShortcuts();
  return (
    <>
      <PageHeader
        title="Shortcuts"
        description="Named sequences of tool calls that become tools of their own. Suggestions come from pairs of calls seen at least three times in a row."
      />
      <QueryState query={shortcuts} what="shortcuts">
        {(data) => (
          <>
            <h2 className="section-title">Suggestions</h2>
            {data.suggestions.length === 0 ? (
              <EmptyState title="No suggestions yet.">
                When an agent calls the same two tools one after the other, successfully, three times or more, the pair
                is suggested here.
              </EmptyState>
            ) : (
              <div className="cards">
                {data.suggestions.map((s) => (
                  <SuggestionCard key={s.draft.id} suggestion={s} />
                ))}
              </div>
            )}
            <h2 className="section-title">Defined</h2>
            {data.defined.length === 0 ? (
              <EmptyState title="No shortcuts defined.">
                Define one from a suggestion, or have an agent call shortcut_define.
              </EmptyState>
            ) : (
              <div className="cards cards-wide">
                {data.defined.map((d) => (
                  <ShortcutCard key={d.id} shortcut={d} />
                ))}
              </div>
            )}
          </>
        )}
      </QueryState>
    </>
  );
}
