/** A page's title, a sentence on what it is for, and its page-wide actions. */
import type { ReactNode } from 'react';

export function PageHeader(props: { title: string; description: string; actions?: ReactNode }): React.JSX.Element {
  return (
    <header className="page-header">
      <div>
        <h1 tabIndex={-1}>{props.title}</h1>
        <p className="muted">{props.description}</p>
      </div>
      {props.actions ? <div className="page-actions">{props.actions}</div> : null}
    </header>
  );
}
