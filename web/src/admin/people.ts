// How the admin pages name a person a reply mentions by uid: the name, else the email,
// else a short id (the full uid stays in the title, for a search).

export interface NamedPerson {
  name?: string | null;
  email?: string | null;
  uid: string;
}

/** The first characters of a uid: enough to tell people apart on a page. */
export const shortId = (uid: string) => (uid.length > 8 ? `${uid.slice(0, 8)}…` : uid);

export const personName = ({ name, email, uid }: NamedPerson): string => name || email || shortId(uid);

/** The name with the email that tells two of the same name apart, where a page lists many people. */
export const personWithEmail = ({ name, email, uid }: NamedPerson): string =>
  name && email ? `${name} (${email})` : personName({ name, email, uid });
