// Pure: how a user is found by the start of its email or name. The profile
// stores both folded (`email_lower`, `name_lower`), and a search folds its text
// the same way, so a prefix query is a range on one indexed field.

/** The folded copies a profile stores beside `email` and `display_name`; null when the original is. */
export interface SearchKeys {
  email_lower: string | null;
  name_lower: string | null;
}

/**
 * Case and accents aside: compatibility forms taken apart (NFKD), the combining
 * marks they leave dropped, lower case, spaces squeezed. "Zoë Ångström" → "zoe angstrom".
 */
export function foldForSearch(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

export function searchKeysOf(user: { email: string | null; display_name: string | null }): SearchKeys {
  return {
    email_lower: user.email === null ? null : foldForSearch(user.email),
    name_lower: user.display_name === null ? null : foldForSearch(user.display_name),
  };
}
