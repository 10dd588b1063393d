import { db } from './db';

// The one module that knows where documents live. Tenant data sits under its
// client document, so every tenant read starts from a client id.
export const paths = {
  clients: () => db.collection('clients'),
  client: (clientId: string) => db.collection('clients').doc(clientId),
  clientName: (nameKey: string) => db.collection('client_names').doc(nameKey),
  /** One document per email domain (normalized) on the platform: the claim that binds it to one organization. */
  emailDomains: () => db.collection('email_domains'),
  emailDomain: (domain: string) => db.collection('email_domains').doc(domain),
  clientUsers: (clientId: string) => db.collection('clients').doc(clientId).collection('users'),
  clientUser: (clientId: string, uid: string) => db.collection('clients').doc(clientId).collection('users').doc(uid),
  superAdmins: () => db.collection('super_admins'),
  superAdmin: (uid: string) => db.collection('super_admins').doc(uid),
  auditLogs: () => db.collection('audit_logs'),
  auditLog: (id: string) => db.collection('audit_logs').doc(id),
  rateLimit: (key: string) => db.collection('rate_limits').doc(key),
  /** An organization's registered networks (one document), and every organization's at once for each instance's registry. */
  clientNetworks: (clientId: string) => db.collection('clients').doc(clientId).collection('networks').doc('registered'),
  allNetworks: () => db.collectionGroup('networks'),
  // ---- invitation links: by the digest of their secret, and each user's one live link
  invitation: (digest: string) => db.collection('invitations').doc(digest),
  invitationHolder: (uid: string) => db.collection('invitation_holders').doc(uid),
  // ---- classes
  clientClasses: (clientId: string) => db.collection('clients').doc(clientId).collection('classes'),
  clientClass: (clientId: string, classId: string) =>
    db.collection('clients').doc(clientId).collection('classes').doc(classId),
  /** A class's members, one document per student (the student's own list of classes is `class_ids` on its profile). */
  classMembers: (clientId: string, classId: string) =>
    db.collection('clients').doc(clientId).collection('classes').doc(classId).collection('members'),
  classMember: (clientId: string, classId: string, uid: string) =>
    db.collection('clients').doc(clientId).collection('classes').doc(classId).collection('members').doc(uid),
  /** One document per class name (normalized) of a client: names are unique within an organization. */
  clientClassName: (clientId: string, nameKey: string) =>
    db.collection('clients').doc(clientId).collection('class_names').doc(nameKey),
  /** How many classes the organization holds: its bound is checked here. */
  clientClassCount: (clientId: string) =>
    db.collection('clients').doc(clientId).collection('class_counts').doc('classes'),
  /** Every organization's classes: telling "another organization's" from "no such" for ids in a body. */
  allClasses: () => db.collectionGroup('classes'),
  // ---- integrations: the outbox, webhook endpoints, LTI platforms
  /** An organization's events, each written in the transaction of the change it reports. */
  clientEvents: (clientId: string) => db.collection('clients').doc(clientId).collection('events'),
  clientEvent: (clientId: string, eventId: string) =>
    db.collection('clients').doc(clientId).collection('events').doc(eventId),
  /** One event for one receiver (a webhook endpoint, an LTI line item), with its tries. */
  clientDeliveries: (clientId: string) => db.collection('clients').doc(clientId).collection('deliveries'),
  clientDelivery: (clientId: string, deliveryId: string) =>
    db.collection('clients').doc(clientId).collection('deliveries').doc(deliveryId),
  /** Every organization's deliveries: the retry runner finds those due. */
  allDeliveries: () => db.collectionGroup('deliveries'),
  clientWebhooks: (clientId: string) => db.collection('clients').doc(clientId).collection('webhooks'),
  clientWebhook: (clientId: string, webhookId: string) =>
    db.collection('clients').doc(clientId).collection('webhooks').doc(webhookId),
  clientLtiPlatforms: (clientId: string) => db.collection('clients').doc(clientId).collection('lti_platforms'),
  clientLtiPlatform: (clientId: string, platformId: string) =>
    db.collection('clients').doc(clientId).collection('lti_platforms').doc(platformId),
  /** The one registration of an (issuer, platform client id) pair across organizations (StoredLtiPlatformKey). */
  ltiPlatformKey: (pairKey: string) => db.collection('lti_platform_keys').doc(pairKey),
  /** Where AGS scores go: one per (test, student) launched with a line item; `{testId}~{uid}`. */
  clientLtiOutcomes: (clientId: string) => db.collection('clients').doc(clientId).collection('lti_outcomes'),
  clientLtiOutcome: (clientId: string, testId: string, uid: string) =>
    db.collection('clients').doc(clientId).collection('lti_outcomes').doc(`${testId}~${uid}`),
  /** A platform course mapped to a class; keyed by contextKey (sha256 of issuer + "\n" + context id, 40 hex). */
  clientLtiContexts: (clientId: string) => db.collection('clients').doc(clientId).collection('lti_contexts'),
  clientLtiContext: (clientId: string, contextKey: string) =>
    db.collection('clients').doc(clientId).collection('lti_contexts').doc(contextKey),
  /** A platform user (issuer + sub) mapped to a user of the organization. */
  clientLtiUser: (clientId: string, userKey: string) =>
    db.collection('clients').doc(clientId).collection('lti_users').doc(userKey),
  /** OIDC logins in flight (state → nonce), consumed once by the launch. */
  ltiState: (state: string) => db.collection('lti_states').doc(state),
  /** Nonces already used by a verified launch (per issuer). */
  ltiNonce: (key: string) => db.collection('lti_nonces').doc(key),
  /** Deep-linking requests waiting for the pick. */
  ltiDeepLink: (sessionId: string) => db.collection('lti_deep_links').doc(sessionId),
  /** The tool's own signing keys (one set for the deployment): its JWKS, deep-linking responses, AGS client assertions. */
  ltiToolKeys: () => db.collection('lti_tool_keys'),
  ltiToolKey: (kid: string) => db.collection('lti_tool_keys').doc(kid),
  // ---- folders and questions
  clientFolders: (clientId: string) => db.collection('clients').doc(clientId).collection('folders'),
  clientFolder: (clientId: string, folderId: string) =>
    db.collection('clients').doc(clientId).collection('folders').doc(folderId),
  clientQuestions: (clientId: string) => db.collection('clients').doc(clientId).collection('questions'),
  clientQuestion: (clientId: string, questionId: string) =>
    db.collection('clients').doc(clientId).collection('questions').doc(questionId),
  /** One document per folder name (normalized) of a client: names are unique within an organization. */
  clientFolderName: (clientId: string, nameKey: string) =>
    db.collection('clients').doc(clientId).collection('folder_names').doc(nameKey),
  /** One document per imported file (keyed by its SHA-256): the import's state, and the guard against importing it twice. */
  clientQuestionImports: (clientId: string) => db.collection('clients').doc(clientId).collection('question_imports'),
  clientQuestionImport: (clientId: string, importId: string) =>
    db.collection('clients').doc(clientId).collection('question_imports').doc(importId),
  /** An import's validated questions, staged in a few large documents before any question becomes visible. */
  clientQuestionImportChunk: (clientId: string, importId: string, index: number) =>
    db
      .collection('clients')
      .doc(clientId)
      .collection('question_imports')
      .doc(importId)
      .collection('chunks')
      .doc(String(index)),
  /** A media file's record (its bytes are in Cloud Storage at mediaObject's name); the id starts with the organization's. */
  clientMediaItems: (clientId: string) => db.collection('clients').doc(clientId).collection('media'),
  clientMedia: (clientId: string, mediaId: string) =>
    db.collection('clients').doc(clientId).collection('media').doc(mediaId),
  /** Where a media file's bytes are in the bucket: beside its record's path, so an organization's files share one prefix. */
  mediaObject: (clientId: string, mediaId: string) => `clients/${clientId}/media/${mediaId}`,
  /** Where a file a taker attached to an essay is in the bucket (its record is in the attempt): under its attempt's path. */
  attachmentObject: (clientId: string, attemptId: string, attachmentId: string) =>
    `clients/${clientId}/attempts/${attemptId}/attachments/${attachmentId}`,
  // ---- tests, frozen versions and share codes
  clientTests: (clientId: string) => db.collection('clients').doc(clientId).collection('tests'),
  clientTest: (clientId: string, testId: string) =>
    db.collection('clients').doc(clientId).collection('tests').doc(testId),
  /** Every organization's tests at once: finding a test by id alone (a Super Admin's, or a 403 instead of a 404). */
  allTests: () => db.collectionGroup('tests'),
  testVersions: (clientId: string, testId: string) =>
    db.collection('clients').doc(clientId).collection('tests').doc(testId).collection('versions'),
  testVersion: (clientId: string, testId: string, version: number) =>
    db.collection('clients').doc(clientId).collection('tests').doc(testId).collection('versions').doc(String(version)),
  /** A pool's questions as a publish froze them, one document each, so a start reads only the ones it draws. */
  poolFrozenQuestion: (clientId: string, testId: string, freezeId: string, questionId: string) =>
    db
      .collection('clients')
      .doc(clientId)
      .collection('tests')
      .doc(testId)
      .collection('pool_freezes')
      .doc(freezeId)
      .collection('questions')
      .doc(questionId),
  poolFreezes: (clientId: string, testId: string) =>
    db.collection('clients').doc(clientId).collection('tests').doc(testId).collection('pool_freezes'),
  /** The essays of submitted attempts waiting for a grade: one document per (attempt, question), deleted by its grade. */
  gradingQueue: (clientId: string, testId: string) =>
    db.collection('clients').doc(clientId).collection('tests').doc(testId).collection('grading_queue'),
  gradingQueueItem: (clientId: string, testId: string, attemptId: string, questionId: string) =>
    db
      .collection('clients')
      .doc(clientId)
      .collection('tests')
      .doc(testId)
      .collection('grading_queue')
      .doc(`${attemptId}~${questionId}`),
  /** Every organization's questions and folders: telling "another organization's" from "no such" for ids in a body. */
  allQuestions: () => db.collectionGroup('questions'),
  allFolders: () => db.collectionGroup('folders'),
  // Share codes are redeemed by code alone, so they live at the top level.
  shareCodes: () => db.collection('share_codes'),
  shareCode: (code: string) => db.collection('share_codes').doc(code),
  shareCodeSeats: (code: string) => db.collection('share_codes').doc(code).collection('seats'),
  shareCodeSeat: (code: string, shard: number) =>
    db.collection('share_codes').doc(code).collection('seats').doc(String(shard)),
  // Here with the tests: a test's delete looks for an attempt of it.
  clientAttempts: (clientId: string) => db.collection('clients').doc(clientId).collection('attempts'),
  // ---- attempts
  clientAttempt: (clientId: string, attemptId: string) =>
    db.collection('clients').doc(clientId).collection('attempts').doc(attemptId),
  /** Every organization's attempts: an attempt is opened by id alone (a token holder, a Guest, a Super Admin). */
  allAttempts: () => db.collectionGroup('attempts'),
  /** An attempt's integrity events (never `events`: that name is the outbox's, whose trigger listens on clients/{c}/events). */
  integrityEvents: (clientId: string, attemptId: string) =>
    db.collection('clients').doc(clientId).collection('attempts').doc(attemptId).collection('integrity_events'),
  integrityEvent: (clientId: string, attemptId: string, eventId: string) =>
    db
      .collection('clients')
      .doc(clientId)
      .collection('attempts')
      .doc(attemptId)
      .collection('integrity_events')
      .doc(eventId),
  /** The counts and last event of an attempt's integrity events, written with them (never by a save). */
  integritySummary: (clientId: string, attemptId: string) =>
    db
      .collection('clients')
      .doc(clientId)
      .collection('attempts')
      .doc(attemptId)
      .collection('integrity_summary')
      .doc('summary'),
  /** One per (test, student): how many attempts it started and which is in progress, so starts never scan attempts. */
  attemptSlot: (clientId: string, testId: string, studentId: string) =>
    db.collection('clients').doc(clientId).collection('tests').doc(testId).collection('attempt_slots').doc(studentId),
  // ---- sittings
  testOverrides: (clientId: string, testId: string) =>
    db.collection('clients').doc(clientId).collection('tests').doc(testId).collection('overrides'),
  testOverride: (clientId: string, testId: string, studentId: string) =>
    db.collection('clients').doc(clientId).collection('tests').doc(testId).collection('overrides').doc(studentId),
  /** How many overrides the test holds: its bound is checked here. */
  testOverrideCount: (clientId: string, testId: string) =>
    db
      .collection('clients')
      .doc(clientId)
      .collection('tests')
      .doc(testId)
      .collection('sitting_counts')
      .doc('overrides'),
  accommodation: (clientId: string, studentId: string) =>
    db.collection('clients').doc(clientId).collection('accommodations').doc(studentId),
  /** How many accommodations the organization holds: its bound is checked here. */
  accommodationCount: (clientId: string) =>
    db.collection('clients').doc(clientId).collection('sitting_counts').doc('accommodations'),
  /** Changes still being carried to the attempts in progress they concern; top level, so the closer finds unfinished ones in one query. */
  deadlineSweeps: () => db.collection('deadline_sweeps'),
  deadlineSweep: (id: string) => db.collection('deadline_sweeps').doc(id),
  // ---- analytics
  /** A version's running sums, split over shards so a class submitting at once spreads its writes. */
  testStatsShard: (clientId: string, testId: string, version: number, shard: number) =>
    db
      .collection('clients')
      .doc(clientId)
      .collection('tests')
      .doc(testId)
      .collection('versions')
      .doc(String(version))
      .collection('stats_shards')
      .doc(String(shard)),
  /**
   * A version's per-question sums for positions at or past STATS_BLOCK_SIZE (pool questions of a large
   * universe), block b ≥ 1 of shard k: each document stays far below 1 MiB however large the pools.
   */
  testStatsBlock: (clientId: string, testId: string, version: number, block: number, shard: number) =>
    db
      .collection('clients')
      .doc(clientId)
      .collection('tests')
      .doc(testId)
      .collection('versions')
      .doc(String(version))
      .collection('stats_blocks')
      .doc(`${block}-${shard}`),
  /**
   * A version's running sums over the attempts of one class (its `class_ids` at start), shard k of
   * CLASS_STATS_SHARDS: `{classId}~{k}`. Beside the test's own shards, in the same shape.
   */
  testClassStats: (clientId: string, testId: string, version: number) =>
    db
      .collection('clients')
      .doc(clientId)
      .collection('tests')
      .doc(testId)
      .collection('versions')
      .doc(String(version))
      .collection('class_stats'),
  testClassStatsShard: (clientId: string, testId: string, version: number, classId: string, shard: number) =>
    db
      .collection('clients')
      .doc(clientId)
      .collection('tests')
      .doc(testId)
      .collection('versions')
      .doc(String(version))
      .collection('class_stats')
      .doc(`${classId}~${shard}`),
  /** A class's per-question sums past STATS_BLOCK_SIZE, as stats_blocks for the test: `{classId}~{block}-{shard}`. */
  testClassStatsBlocks: (clientId: string, testId: string, version: number) =>
    db
      .collection('clients')
      .doc(clientId)
      .collection('tests')
      .doc(testId)
      .collection('versions')
      .doc(String(version))
      .collection('class_stats_blocks'),
  testClassStatsBlock: (
    clientId: string,
    testId: string,
    version: number,
    classId: string,
    block: number,
    shard: number,
  ) =>
    db
      .collection('clients')
      .doc(clientId)
      .collection('tests')
      .doc(testId)
      .collection('versions')
      .doc(String(version))
      .collection('class_stats_blocks')
      .doc(`${classId}~${block}-${shard}`),
  /** A version's recompute claim: one recompute of a version at a time (outside stats_shards, which holds shards only). */
  testStatsRecomputeLease: (clientId: string, testId: string, version: number) =>
    db
      .collection('clients')
      .doc(clientId)
      .collection('tests')
      .doc(testId)
      .collection('versions')
      .doc(String(version))
      .collection('stats_leases')
      .doc('recompute'),
};
