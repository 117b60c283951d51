/**
 * What a page opened without a person's UI session shows: how to open Toolgate properly. Nothing
 * else loads, so a browser that only typed the address (an agent's, say) sees no approvals,
 * settings or tokens.
 */
export function NoSessionPage(): React.JSX.Element {
  return (
    <main className="content no-session" aria-labelledby="no-session-title">
      <div className="card">
        <h1 id="no-session-title">Open Toolgate from its link</h1>
        <p>
          This page has no UI session. Open Toolgate from the link the host printed when it started (
          <code>npm run serve</code> prints it), or run <code>toolgate ui-link --data-dir DIR</code> for a fresh
          one-time link, with the data dir the host uses.
        </p>
        <p className="muted small">
          Each link opens the UI once, in the browser that opens it. Agents connect over MCP with a token and never need
          this page.
        </p>
      </div>
    </main>
  );
}
