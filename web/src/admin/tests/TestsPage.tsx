import { NeedsOrg } from '../org';

/** Tests */
export function TestsPage() {
  return <NeedsOrg>{(clientId) => <h1>Tests of {clientId}</h1>}</NeedsOrg>;
}
