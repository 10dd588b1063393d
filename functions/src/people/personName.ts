import { z } from 'zod';

// Pure: how a reply names a person it mentions by uid.

export interface PersonName {
  display_name: string | null;
  email: string | null;
}

export const NO_NAME: PersonName = { display_name: null, email: null };

/** The name fields of `uid` under a prefix (`student` → student_name, student_email); nulls when unknown. */
export function nameFields<P extends string>(
  prefix: P,
  names: Map<string, PersonName>,
  uid: string | null | undefined,
): Record<`${P}_name` | `${P}_email`, string | null> {
  const person = (uid ? names.get(uid) : undefined) ?? NO_NAME;
  return { [`${prefix}_name`]: person.display_name, [`${prefix}_email`]: person.email } as Record<
    `${P}_name` | `${P}_email`,
    string | null
  >;
}

/** The reply's name fields of one person it names by uid (as nameFields fills them): present in lists, absent elsewhere. */
export const listedNameFields = <P extends string>(prefix: P, who: string) =>
  ({
    [`${prefix}_name`]: z
      .string()
      .nullable()
      .optional()
      .describe(
        `In a list: the display name of ${who}, from their profile; null when unknown (show the email, then the uid)`,
      ),
    [`${prefix}_email`]: z.string().nullable().optional().describe(`In a list: the email of ${who}; null when unknown`),
  }) as Record<`${P}_name` | `${P}_email`, z.ZodOptional<z.ZodNullable<z.ZodString>>>;

/** The reply's name fields of one person it names by uid, always present (as nameFields fills them). */
export const nameSchemaFields = <P extends string>(prefix: P, who: string) =>
  ({
    [`${prefix}_name`]: z
      .string()
      .nullable()
      .describe(`The display name of ${who}, from their profile; null when unknown (show the email, then the uid)`),
    [`${prefix}_email`]: z.string().nullable().describe(`The email of ${who}; null when unknown`),
  }) as Record<`${P}_name` | `${P}_email`, z.ZodNullable<z.ZodString>>;
