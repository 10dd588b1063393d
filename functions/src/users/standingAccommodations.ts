// A page of students' standing extra time, asked of the sittings feature (provided by app.ts):
// sittings reads users' profiles, so users reaches for the accommodations only through this hook.

/** The accommodation of each of these students of the organization that has one, by uid, read at once (one getAll). */
export type StandingAccommodations = (
  clientId: string,
  uids: readonly string[],
) => Promise<Map<string, { extra_time_percent: number; extra_minutes: number }>>;

let provided: StandingAccommodations | undefined;

export function provideStandingAccommodations(read: StandingAccommodations): void {
  provided = read;
}

export function standingAccommodations(...args: Parameters<StandingAccommodations>) {
  if (!provided) throw new Error('Standing accommodations were not provided (app.ts provideEffects)');
  return provided(...args);
}
