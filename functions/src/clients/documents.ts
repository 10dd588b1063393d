import type { Client } from './schemas';

// Pure: the Firestore documents the clients feature owns (where they live: firestore/paths.ts).

/** clients/{clientId}: exactly the reply's fields. */
export type StoredClient = Client;

/** client_names/{key}: the guard that makes a client's name unique on the platform. */
export interface StoredClientName {
  client_id: string;
}

/** email_domains/{domain}: the claim that binds a normalized email domain to one organization. */
export interface StoredEmailDomain {
  domain: string;
  client_id: string;
  created_at: string;
  created_by: string;
}
