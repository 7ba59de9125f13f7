export function App() {
  return (
    <main>
      <h1>i</h1>
      <p>An AI coding agent that runs in your browser.</p>
    </main>
  );
}
