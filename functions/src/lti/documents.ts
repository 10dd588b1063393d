import type { Timestamp } from 'firebase-admin/firestore';

// What the LTI 1.3 tool keeps in Firestore. Platform registrations belong to
// an organization; a launch maps the platform's user and course onto the
// organization's own users and classes and remembers where grades go.

/** clients/{c}/lti_platforms/{platformId}: an LMS registered by the organization's admin. */
export interface StoredLtiPlatform {
  id: string;
  /** The organization (as everywhere else), not the platform's OAuth client id. */
  client_id: string;
  issuer: string;
  /** The OAuth client id the platform gave the tool (the API's `client_id`). */
  platform_client_id: string;
  deployment_ids: string[];
  auth_login_url: string;
  auth_token_url: string;
  jwks_url: string;
  name: string;
  /** When true, an Instructor launch makes (or finds) a Client Admin; otherwise an Instructor launches as a Student. */
  instructors_as_admins: boolean;
  created_at: string;
  updated_at: string;
}

/**
 * lti_platform_keys/{sha256(issuer \n client_id) first 40 hex}: the one registration of an (issuer,
 * client_id) pair across all organizations; written in the registration's transaction. The login finds
 * the organization and platform from (iss, client_id) here in one read.
 */
export interface StoredLtiPlatformKey {
  client_id: string;
  platform_id: string;
  issuer: string;
  platform_client_id: string;
  created_at: string;
}

/** clients/{c}/lti_contexts/{contextKey}: a platform course mapped to a class (made by its first launch). */
export interface StoredLtiContext {
  platform_id: string;
  issuer: string;
  context_id: string;
  title: string;
  class_id: string;
  /** The NRPS context_memberships_url when the platform offers it. */
  memberships_url: string | null;
  roster_synced_at: string | null;
  created_at: string;
}

/** clients/{c}/lti_outcomes/{testId}~{uid}: where the score of this student's attempts at this test goes (AGS). */
export interface StoredLtiOutcome {
  platform_id: string;
  /** The line item URL from the launch's AGS endpoint claim. */
  lineitem: string;
  /** The platform's user id (`sub`) the score is posted for. */
  user_sub: string;
  updated_at: string;
}

/** clients/{c}/lti_users/{userKey}: a platform user (issuer + sub) mapped to a user of the organization. */
export interface StoredLtiUser {
  platform_id: string;
  issuer: string;
  sub: string;
  uid: string;
  created_at: string;
}

/** lti_states/{state}: an OIDC login in flight, consumed once by the launch. */
export interface StoredLtiState {
  client_id: string;
  platform_id: string;
  nonce: string;
  /**
   * What verifying the launch needs of the registration, copied at login so the launch verifies before
   * any further read (the launch's transaction reads the registration again: a deleted one refuses).
   */
  issuer: string;
  platform_client_id: string;
  jwks_url: string;
  deployment_ids: string[];
  /** The target_link_uri the platform asked for (informational; the launch goes to the launch URL). */
  target_link_uri: string;
  /** sha256 (hex) of the key the login set in the browser's `__session` cookie: the launch must bring the key back. */
  browser_hash: string;
  /** ms since epoch after which the launch is refused. */
  expires_at_ms: number;
  created_at: string;
}

/** lti_nonces/{sha256(issuer \n nonce)}: a nonce seen in a verified id_token (a replay is refused). */
export interface StoredLtiNonce {
  expires_at_ms: number;
  /** Firestore's TTL deletes it after this. */
  expires_at: Timestamp;
}

/** lti_deep_links/{sessionId}: a deep-linking request waiting for the admin's pick. */
export interface StoredLtiDeepLinkSession {
  client_id: string;
  platform_id: string;
  /** The Firebase uid signed in by the launch: only it may use the session. */
  uid: string;
  deployment_id: string;
  return_url: string;
  /** The platform's opaque `data`, echoed back in the response. */
  data: string | null;
  /** The class of the course the request came from: the chosen test is assigned to it. */
  class_id: string | null;
  expires_at_ms: number;
  created_at: string;
}
