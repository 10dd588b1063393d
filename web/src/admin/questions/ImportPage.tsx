/** Import questions */
export function ImportPage() {
  return <h1>Import questions</h1>;
}
