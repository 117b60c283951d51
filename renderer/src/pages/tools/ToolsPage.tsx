/**
 * Tools: the toolsets and their cost, then the catalog on the left, the selected tool and its Try-it form on the right.
 */
import { EmptyState } from '../../components/EmptyState';
import { PageHeader } from '../../components/PageHeader';
import { QueryState } from '../../components/QueryState';
import { useTools, useToolsets } from '../../state/queries';
import { ToolCatalog } from './ToolCatalog';
import { ToolDetail } from './ToolDetail';
import { ToolsetTable } from './ToolsetTable';

export function ToolsPage(props: { selectedId: string | undefined }): React.JSX.Element {
  const tools = useTools();
  const toolsets = useToolsets();
  return (
    <>
      <PageHeader
        title="Tools"
        description={
          'Every tool the host serves, by toolset and category. Pick ' +
          'one to read its contract and try it through the pipeline.'
        }
      />
      {toolsets.data && toolsets.data.length > 0 ? <ToolsetTable toolsets={toolsets.data} /> : null}
      <QueryState
        query={tools}
        what="tools"
        isEmpty={(list) => list.length === 0}
        empty={
          <EmptyState title="The host serves no tools.">
            Tool families register when the host starts; check the host's log.
          </EmptyState>
        }
      >
        {(list) => {
          const selected = list.find((t) => t.id === props.selectedId);
          return (
            <div className="split">
              <ToolCatalog tools={list} selectedId={props.selectedId} />
              {selected ? (
                <ToolDetail tool={selected} />
              ) : props.selectedId ? (
                <EmptyState title={`No tool named “${props.selectedId}”.`}>
                  It may have been removed. Pick another tool from the list.
                </EmptyState>
              ) : (
                <EmptyState title="Pick a tool.">Its description, risk and a form to call it appear here.</EmptyState>
              )}
            </div>
          );
        }}
      </QueryState>
    </>
  );
}
