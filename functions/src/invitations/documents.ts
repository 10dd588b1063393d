// Pure: the Firestore documents the invitations feature owns (where they live: firestore/paths.ts).

/**
 * invitations/{digest}: one invitation link, keyed by the SHA-256 of its secret (never the secret).
 * `status` moves live → redeeming (held by one redemption until `held_until`) → used, or to revoked;
 * an expired one stays as it is and is refused by its `expires_at`.
 */
export interface StoredInvitation {
  uid: string;
  client_id: string;
  email: string;
  display_name: string | null;
  status: 'live' | 'redeeming' | 'used' | 'revoked';
  issued_at: string;
  issued_by: string;
  expires_at: string;
  /** The redemption holding it, and until when (status redeeming). */
  hold_id?: string | null;
  held_until?: string | null;
  used_at?: string | null;
  revoked_at?: string | null;
}

/** invitation_holders/{uid}: the user's one live invitation; issuing a new one revokes what this names. */
export interface StoredInvitationHolder {
  digest: string;
  client_id: string;
  expires_at: string;
}
