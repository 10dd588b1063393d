import { domainToASCII } from 'node:url';

// Pure: what an email domain bound to an organization may be, and its one spelling (the claim's key).

/**
 * Mail domains anyone can have an address at: binding one would let any stranger join the organization.
 * Matched on the whole domain, and `yahoo.*` / `hotmail.*` / `outlook.*` / `live.*` on any country suffix.
 */
const CONSUMER_DOMAINS = new Set([
  'gmail.com',
  'googlemail.com',
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'passport.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'pm.me',
  'gmx.com',
  'gmx.net',
  'gmx.de',
  'web.de',
  'mail.com',
  'mail.ru',
  'yandex.com',
  'yandex.ru',
  'zoho.com',
  'qq.com',
  '163.com',
  '126.com',
  'naver.com',
  'fastmail.com',
  'tutanota.com',
  'hey.com',
  'rocketmail.com',
  'ymail.com',
]);
const CONSUMER_FAMILIES = ['yahoo', 'hotmail', 'outlook', 'live', 'windowslive', 'aol'];

export const MAX_DOMAIN_LENGTH = 253;

export type DomainVerdict = { ok: true; domain: string } | { ok: false; message: string };

/** Trimmed, lower case, IDNA to ASCII (`Bücher.example` → `xn--bcher-kva.example`); a trailing dot dropped. */
export function normalizeDomain(raw: string): string {
  const trimmed = raw.trim().toLowerCase().replace(/\.$/, '');
  return domainToASCII(trimmed);
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** The domain as it is kept, or why it cannot be bound. */
export function domainVerdict(raw: string): DomainVerdict {
  const domain = normalizeDomain(raw);
  const labels = domain.split('.');
  if (
    domain === '' ||
    domain.length > MAX_DOMAIN_LENGTH ||
    labels.length < 2 ||
    !labels.every((label) => LABEL.test(label)) ||
    /^[0-9]+$/.test(labels[labels.length - 1])
  ) {
    return { ok: false, message: `"${raw.trim()}" is not an email domain (e.g. school.example.edu)` };
  }
  if (isConsumerDomain(domain)) {
    return {
      ok: false,
      message: `${domain} is a public mail service: anyone can have an address there, so it cannot be bound to an organization`,
    };
  }
  return { ok: true, domain };
}

export function isConsumerDomain(domain: string): boolean {
  if (CONSUMER_DOMAINS.has(domain)) return true;
  const labels = domain.split('.');
  // yahoo.co.uk, hotmail.fr, outlook.com.br: a family's name followed only by a country's suffix.
  return CONSUMER_FAMILIES.includes(labels[0]) && labels.slice(1).every((label) => label.length <= 3);
}

/** The domain of an email address, normalized as bound domains are; null when there is none. */
export function domainOfEmail(email: string): string | null {
  const at = email.lastIndexOf('@');
  if (at < 1 || at === email.length - 1) return null;
  const domain = normalizeDomain(email.slice(at + 1));
  return domain === '' ? null : domain;
}
