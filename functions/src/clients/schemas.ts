import { createHash } from 'node:crypto';
import { z } from 'zod';
import { ClientId, pagedQuery, Pagination } from '../shared';

const ActiveStatus = z.union([z.literal(0), z.literal(1)]).describe('1 = active, 0 = deactivated');
const name = z.string().trim().min(1).max(200);
const address = z.string().trim().min(1).max(500);
const logoUrl = z.url({ protocol: /^https$/, hostname: z.regexes.domain, error: 'Must be an https URL' }).max(2048);
/** Whether this runtime knows `zone` as an IANA time zone (what Intl.DateTimeFormat accepts). */
const knownZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
};
const timeZone = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .refine(knownZone, { message: 'Must be an IANA time zone, e.g. Europe/Paris' })
  .describe('The organization’s IANA time zone (e.g. Europe/Paris): the results CSV writes times in it, naming it');

export const DEFAULT_INVITATION_DAYS = 7;
const MIN_INVITATION_DAYS = 1;
const MAX_INVITATION_DAYS = 30;
const InvitationDays = z
  .number()
  .int()
  .min(MIN_INVITATION_DAYS)
  .max(MAX_INVITATION_DAYS)
  .describe(
    `How many days an invitation link lasts (${MIN_INVITATION_DAYS} to ${MAX_INVITATION_DAYS}; ${DEFAULT_INVITATION_DAYS} when never set). ` +
      'Set by the organization’s Client Admin or a Super Admin; links already issued keep their expiry.',
  );

export const Client = z
  .object({
    id: z.string(),
    name: z.string(),
    address: z.string(),
    logo_url: z.string(),
    active_status: ActiveStatus,
    time_zone: z.string().optional().describe('The organization’s IANA time zone; absent: UTC'),
    invitation_days: InvitationDays.default(DEFAULT_INVITATION_DAYS),
    created_at: z.string().describe('ISO 8601 UTC'),
    updated_at: z.string().describe('ISO 8601 UTC'),
  })
  .meta({ id: 'Client' });
/** As stored and built: invitation_days only once set (the reply fills in the default). */
export type Client = z.input<typeof Client>;

export const CreateClientBody = z.strictObject({ name, address, logo_url: logoUrl }).meta({ id: 'CreateClient' });

export const UpdateClientBody = z
  .strictObject({
    name: name.optional(),
    address: address.optional(),
    logo_url: logoUrl.optional(),
    active_status: ActiveStatus.optional(),
    time_zone: timeZone.optional(),
    invitation_days: InvitationDays.optional(),
  })
  .refine((body) => Object.keys(body).length > 0, { message: 'Send at least one field to change' })
  .meta({ id: 'UpdateClient' });
export type ClientChanges = z.infer<typeof UpdateClientBody>;

export const ClientParams = z.strictObject({ clientId: ClientId });

export const ListClientsQuery = pagedQuery({
  active_status: z.enum(['0', '1']).transform(Number).optional(),
});

export const ClientList = z.object({ clients: z.array(Client), pagination: Pagination }).meta({ id: 'ClientList' });

/** A name as compared for uniqueness: Unicode-normalized, spacing collapsed, case folded. */
export const normalizedClientName = (value: string): string =>
  value.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase().normalize('NFKC');

/**
 * Names are unique per platform regardless of case, spacing and Unicode form.
 * The key is a digest, so any name (`..`, `__x__`, 200 CJK characters) makes a
 * valid document id of fixed length.
 */
export const clientNameKey = (value: string): string =>
  createHash('sha256').update(normalizedClientName(value), 'utf8').digest('hex');

export const EmailDomain = z
  .object({
    domain: z.string().describe('Normalized: lower case, IDNA in ASCII (xn--…)'),
    client_id: z.string(),
    created_at: z.string().describe('ISO 8601 UTC'),
  })
  .meta({ id: 'EmailDomain' });
export type EmailDomain = z.infer<typeof EmailDomain>;

export const EmailDomainList = z
  .object({ domains: z.array(EmailDomain).describe('By domain; at most MAX_DOMAINS_PER_CLIENT') })
  .meta({ id: 'EmailDomainList' });

export const BindDomainBody = z
  .strictObject({
    domain: z
      .string()
      .min(1)
      .max(300)
      .describe(
        'An email domain (school.example.edu); trimmed, lower-cased, IDNA to ASCII. Public mail services (gmail.com, outlook.com, …) are refused.',
      ),
  })
  .meta({ id: 'BindDomain' });

export const DomainParams = z.strictObject({ clientId: ClientId, domain: z.string().min(1).max(300) });
