import { exportJWK, generateKeyPair, importJWK, SignJWT, type JWK, type JWTPayload, type KeyLike } from 'jose';
import { db, paths } from '../firestore';
import { readCache } from '../shared';

// The tool's RS256 keys, one set for the whole deployment: the newest signs
// (deep-linking responses, the client assertions that buy AGS and NRPS
// tokens); every key still kept is published in the JWKS, so a platform that
// cached the previous one keeps verifying through a rotation. Made on first
// use; rotated by a Super Admin (a new key signs, the old stays published).

interface StoredToolKey {
  kid: string;
  /** The private JWK (n, e, d, p, q, …): never leaves the service; the JWKS publishes only n and e. */
  private_jwk: JWK;
  created_at: string;
}

const ALG = 'RS256';
/** How many keys the JWKS keeps publishing: the signing one and the ones before it. */
const KEYS_PUBLISHED = 3;

const keySet = readCache<StoredToolKey[]>({ max: 1, ttlMs: 5 * 60_000 });

async function newestKeys(): Promise<StoredToolKey[]> {
  return keySet.get('keys', async () => {
    const snap = await paths.ltiToolKeys().orderBy('created_at', 'desc').limit(KEYS_PUBLISHED).get();
    return snap.docs.map((d) => d.data() as StoredToolKey);
  });
}

/** A new key pair as stored (not yet written). */
async function newKey(): Promise<StoredToolKey> {
  const { privateKey } = await generateKeyPair(ALG, { extractable: true, modulusLength: 2048 });
  const jwk = await exportJWK(privateKey);
  const kid = paths.ltiToolKeys().doc().id;
  return { kid, private_jwk: { ...jwk, kid, alg: ALG, use: 'sig' }, created_at: new Date().toISOString() };
}

/** The key that signs: the newest, made when there is none (in a transaction, so two instances at once make one). */
async function signingKey(): Promise<StoredToolKey> {
  const [newest] = await newestKeys();
  if (newest) return newest;
  keySet.clear();
  return db
    .runTransaction(async (tx) => {
      const existing = await tx.get(paths.ltiToolKeys().orderBy('created_at', 'desc').limit(1));
      if (!existing.empty) return existing.docs[0].data() as StoredToolKey;
      const key = await newKey();
      tx.create(paths.ltiToolKey(key.kid), key);
      return key;
    })
    .finally(() => keySet.clear());
}

/** The public keys a platform verifies the tool with (`GET /api/lti/jwks`). */
export async function toolJwks(): Promise<{ keys: JWK[] }> {
  await signingKey();
  const keys = await newestKeys();
  return { keys: keys.map(({ private_jwk: { kid, kty, n, e, alg, use } }) => ({ kid, kty, n, e, alg, use })) };
}

/** Signs `payload` as the tool (RS256, its kid in the header), for `expiresInSeconds`. */
export async function signAsTool(payload: JWTPayload, expiresInSeconds: number): Promise<string> {
  const key = await signingKey();
  const privateKey = (await importJWK(key.private_jwk, ALG)) as KeyLike;
  return new SignJWT(payload)
    .setProtectedHeader({ alg: ALG, kid: key.kid, typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(`${expiresInSeconds}s`)
    .setJti(crypto.randomUUID())
    .sign(privateKey);
}

/** A new signing key; the previous ones stay published until KEYS_PUBLISHED newer ones exist. */
export async function rotateToolKey(): Promise<{ kid: string }> {
  const key = await newKey();
  await paths.ltiToolKey(key.kid).create(key);
  keySet.clear();
  return { kid: key.kid };
}
