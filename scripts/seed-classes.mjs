// The demo's classes: Year 9 Science with Student One, Year 11 Science with Student Two.
// The demo quiz and the pool-and-essay test are assigned to Year 9 only, so Student Two
// (signed in) does not see them, while the sitting test stays open to the whole organization.
// Through the API, idempotent: classes are found by name, memberships are PUTs.

export const DEMO_CLASSES = [
  { name: 'Year 9 Science', code: '9S', members: ['demo-student-1'] },
  { name: 'Year 11 Science', code: '11S', members: ['demo-student-2'] },
];

/** The demo classes, created when missing, with their members; returns them in DEMO_CLASSES' order. `listAll` follows a list's cursors. */
export async function seedClasses(api, listAll) {
  const existing = await listAll(api, '/api/classes');
  const classes = [];
  for (const wanted of DEMO_CLASSES) {
    const found =
      existing.find((c) => c.name === wanted.name) ??
      (await api('POST', '/api/classes', { name: wanted.name, code: wanted.code }, 201));
    for (const uid of wanted.members)
      await api('PUT', `/api/classes/${found.id}/members/${encodeURIComponent(uid)}`, undefined, 200);
    classes.push({ ...found, members: wanted.members });
  }
  return classes;
}

/** Assigns the test to exactly these classes (a PATCH only when it differs). */
export async function assignTest(api, test, classIds) {
  const current = [...(test.assigned_class_ids ?? [])].sort();
  const wanted = [...classIds].sort();
  if (current.join() === wanted.join()) return test;
  return api('PATCH', `/api/tests/${test.id}`, { assigned_class_ids: classIds }, 200);
}
