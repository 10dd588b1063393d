import { NeedsOrg } from '../org';
import { LtiPlatforms } from './LtiPlatforms';
import { Webhooks } from './Webhooks';

/** Integrations: the organization's webhook endpoints and its LTI 1.3 platforms. */
export function IntegrationsPage() {
  return (
    <>
      <h1>Integrations</h1>
      <NeedsOrg>
        {(clientId) => (
          <div key={clientId}>
            <Webhooks clientId={clientId} />
            <LtiPlatforms clientId={clientId} />
          </div>
        )}
      </NeedsOrg>
    </>
  );
}
