import type { Client } from './schemas';

// Pure: the Firestore documents the clients feature owns (where they live: firestore/paths.ts).

/** clients/{clientId}: exactly the reply's fields. */
export type StoredClient = Client;

/** client_names/{key}: the guard that makes a client's name unique on the platform. */
export interface StoredClientName {
  client_id: string;
}
