/** Test */
export function TestPage() {
  return <h1>Test</h1>;
}
