export function App(): React.JSX.Element {
  return (
    <main>
      <h1>Toolgate</h1>
      <p>Control center for LLM tools.</p>
    </main>
  );
}
