/** Audit log */
export function AuditPage() {
  return <h1>Audit log</h1>;
}
