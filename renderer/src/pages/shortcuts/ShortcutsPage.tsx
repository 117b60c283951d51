/**
 * Shortcuts: sequences of tools the traces show agents repeat (define one with a click), the
 * shortcuts already defined, each runnable, and the telemetry keys a precondition may name.
 * Suggestions refresh as new calls arrive.
 */
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useShortcuts } from '../../state/queries';
import { ShortcutCard } from './ShortcutCard';
import { SuggestionCard } from './SuggestionCard';
import { PreconditionKeys } from './PreconditionKeys';

export function ShortcutsPage(): React.JSX.Element {
  const shortcuts = useShortcuts();
  return (
    <>
      <PageHeader
        title="Shortcuts"
        description={
          'Named sequences of tool calls that become tools of their own. Suggestions come from sequences ' +
          'of 2 to 16 calls an agent made in the same order, all successfully, at least three times.'
        }
      />
      <QueryState query={shortcuts} what="shortcuts">
        {(data) => (
          <>
            <h2 className="section-title">Suggestions</h2>
            {data.suggestions.length === 0 ? (
              <EmptyState title="No suggestions yet.">
                When an agent calls the same tools in the same order, successfully, three times or more (in one session,
                one right after the other), the sequence is suggested here.
              </EmptyState>
            ) : (
              <div className="cards">
                {data.suggestions.map((s) => (
                  <SuggestionCard key={s.draft.id} suggestion={s} />
                ))}
              </div>
            )}
            <PreconditionKeys keys={data.preconditionKeys} />
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
