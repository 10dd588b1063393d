/** Live sitting */
export function LivePage() {
  return <h1>Live sitting</h1>;
}
