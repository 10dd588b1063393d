import { createHash, randomBytes } from 'node:crypto';

// The secret of an invitation link: 32 random bytes, base64url (43 characters). The link carries it
// in the URL fragment, which a browser never sends to a server (nor in a Referer), and the service
// keeps only its SHA-256 digest: a copy of the database opens no account.

const SECRET_BYTES = 32;
const SECRET_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const newSecret = (): string => randomBytes(SECRET_BYTES).toString('base64url');

/** The stored form (and document id) of a secret: hex SHA-256. */
export const digestOf = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

/** Only text of the secret's shape can be one: anything else is refused before any read. */
export const hasSecretShape = (text: string): boolean => SECRET_SHAPE.test(text);

/** The web app's landing page for the secret, at the origin the admin reached the API through. */
export const invitationUrl = (origin: string, secret: string): string =>
  `${origin.replace(/\/+$/, '')}/invitation#token=${secret}`;
