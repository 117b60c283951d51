/** What a panel shows when there is nothing to show yet, and what would fill it. */
import type { ReactNode } from 'react';

export function EmptyState(props: { title: string; children?: ReactNode }): React.JSX.Element {
  return (
    <div className="empty-state" role="status">
      <p className="empty-title">{props.title}</p>
      {props.children ? <div className="empty-body">{props.children}</div> : null}
    </div>
  );
}
