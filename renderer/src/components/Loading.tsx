/** A loading placeholder that says what is loading (screen readers hear it once). */
export function Loading(props: { what: string }): React.JSX.Element {
  return (
    <div className="loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" />
      Loading {props.what}…
    </div>
  );
}
