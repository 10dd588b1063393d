/** Organizations */
export function OrganizationsPage() {
  return <h1>Organizations</h1>;
}
