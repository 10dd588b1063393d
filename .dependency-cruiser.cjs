// The folders' walls (docs/architecture.md, "Layout"), checked by dependency-cruiser in
// npm test (test/architecture/dependencies.test.ts; `npx depcruise functions/src web/src`
// runs the same rules by hand). The rules are made for a source root, so the test can run
// them on small planted trees too. Folder cycles are found by the test itself, from the
// cruise's result: a cycle is between folders, which a module-level rule does not see.

/** A source root's folders and their rings. Names are top-level folders, or files at the root. */
const functionsLayout = {
  // The kernel: what every feature may use, and which uses no feature.
  kernel: ['shared', 'platform', 'firestore', 'outbound', 'transfer', 'types', 'config.ts'],
  // Pure: plain logic over plain data, on the kernel only, no Firebase.
  pure: ['sittingRules', 'interchange', 'scoring', 'questionTypes'],
  // Pure folders a pure folder builds on: a question type's bank file mappings are written with the
  // formats' own kits (interchange/), which in turn know no type.
  pureBelow: { questionTypes: ['interchange'] },
  // Side doors: files imported directly from outside their folder. None: a door loaded at cold start
  // gives what a cold start must not load as a loader (`loadStore()`: `import('./store')` when called).
  sideDoors: [],
  // Pairs docs/architecture.md says are never imported, with the reason it gives.
  forbidden: [
    {
      name: 'analytics-by-effects',
      from: ['attempts', 'grading', 'regrading'],
      to: ['analytics'],
      comment: 'a score change reaches analytics through SubmissionEffects, handed over by app.ts',
    },
    {
      name: 'attempts-by-effects',
      from: ['exams'],
      to: ['attempts', 'sittings'],
      comment: "a test's change reaches its attempts through TestChangeEffects, handed over by app.ts",
    },
    {
      name: 'users-below-classes',
      from: ['users'],
      to: ['classes'],
      comment: 'classes/ reads users/, never the reverse',
    },
    {
      name: 'http-below-openapi',
      from: ['http'],
      to: ['openapi'],
      comment: 'the OpenAPI document is built from the routes, the routes know nothing of it',
    },
    {
      name: 'outbox-names-no-channel',
      from: ['outbox', 'delivery'],
      to: ['webhooks', 'lti'],
      comment: 'the outbox and its delivery engine are generic over channels; app.ts hands them their receivers',
    },
    {
      name: 'people-below-features',
      from: ['people'],
      to: ['attempts', 'grading', 'sittings', 'exams', 'audit'],
      comment: 'people/ is below every feature that names people',
    },
  ],
};

/** web/src: its folders are the features (admin/ with its pages' subfolders is one), its root files the app shell. */
const webLayout = {
  kernel: ['api'],
  sideDoors: [],
  pure: [],
  forbidden: [
    {
      name: 'question-types-below-pages',
      from: ['questionTypes'],
      to: ['taker', 'admin', 'lti'],
      comment: 'the pages ask the question types, never the reverse',
    },
  ],
};

const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A pattern for the top-level folders (or root files) named, under root. */
const under = (root, names) =>
  `^${escaped(root)}/(${names.map((name) => (name.endsWith('.ts') ? `${escaped(name)}$` : `${escaped(name)}/`)).join('|')})`;
const FRONT_DOOR = (root) => `^${escaped(root)}/[^/]+/index\\.tsx?$`;
const doors = (root, layout) => [
  FRONT_DOOR(root),
  ...(layout.sideDoors ?? []).map((file) => `^${escaped(root)}/${escaped(file)}$`),
];
const FIREBASE = '(^|/)node_modules/(firebase-admin|firebase-functions|@google-cloud/)';

/** The forbidden rules for one source root laid out as layout says. */
function rulesFor(root, layout) {
  const r = escaped(root);
  const rules = [
    {
      name: 'front-door',
      severity: 'error',
      comment: 'a folder is entered only through its index.ts, which exports what other folders may use',
      from: { path: `^${r}/([^/]+)/` },
      to: { path: `^${r}/[^/]+/`, pathNot: [`^${r}/$1/`, ...doors(root, layout)] },
    },
    {
      name: 'front-door-from-root',
      severity: 'error',
      comment: "the root's files (the composition root, the app shell) enter a folder only through its index.ts",
      from: { path: `^${r}/[^/]+$` },
      to: { path: `^${r}/[^/]+/`, pathNot: doors(root, layout) },
    },
    {
      name: 'own-front-door',
      severity: 'error',
      comment: "inside a folder (its subfolders too) files import each other directly, never their folder's index.ts",
      from: { path: `^${r}/([^/]+)/`, pathNot: FRONT_DOOR(root) },
      to: { path: `^${r}/$1/index\\.tsx?$` },
    },
  ];
  if (layout.kernel.length > 0)
    rules.push({
      name: 'kernel-imports-no-feature',
      severity: 'error',
      comment: `the kernel (${layout.kernel.join(', ')}) is below every feature: it imports only the kernel`,
      from: { path: under(root, layout.kernel) },
      to: { path: `^${r}/`, pathNot: under(root, layout.kernel) },
    });
  if (layout.pure.length > 0)
    rules.push(
      ...layout.pure.map((folder) => {
        const below = layout.pureBelow?.[folder] ?? [];
        return {
          name: 'pure-imports-kernel-only',
          severity: 'error',
          comment: `a pure folder (${layout.pure.join(', ')}) imports only itself, the kernel and the pure folders it builds on`,
          from: { path: `^${r}/${escaped(folder)}/` },
          to: {
            path: `^${r}/`,
            pathNot: [
              `^${r}/${escaped(folder)}/`,
              under(root, layout.kernel),
              ...(below.length ? [under(root, below)] : []),
            ],
          },
        };
      }),
      {
        name: 'pure-no-firebase',
        severity: 'error',
        comment: `a pure folder (${layout.pure.join(', ')}) imports no Firebase: it is tested without it`,
        from: { path: under(root, layout.pure) },
        to: { path: FIREBASE },
      },
    );
  for (const pair of layout.forbidden)
    rules.push({
      name: pair.name,
      severity: 'error',
      comment: `${pair.from.join(', ')} never import ${pair.to.join(', ')}: ${pair.comment}`,
      from: { path: under(root, pair.from) },
      to: { path: under(root, pair.to) },
    });
  return rules;
}

/** How the rules' sources are read: type-only imports count (they are a dependency too), packages are not walked. */
const options = {
  tsPreCompilationDeps: true,
  doNotFollow: { path: 'node_modules' },
  exclude: { path: '\\.d\\.ts$' },
};

module.exports = {
  forbidden: [...rulesFor('functions/src', functionsLayout), ...rulesFor('web/src', webLayout)],
  options,
};
// For the test; not enumerable, so dependency-cruiser (which clones its configuration) sees data only.
for (const [name, value] of Object.entries({ rulesFor, functionsLayout, webLayout }))
  Object.defineProperty(module.exports, name, { value, enumerable: false });
