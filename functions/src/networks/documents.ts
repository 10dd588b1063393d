import type { Timestamp } from 'firebase-admin/firestore';

/** clients/{clientId}/networks/registered: the organization's networks, canonical CIDR prefixes. */
export interface StoredNetworks {
  client_id: string;
  networks: string[];
  /** When they last changed: every instance's registry reads only what changed since its last read. */
  updated_at: Timestamp;
  updated_by: string;
}
