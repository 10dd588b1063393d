import { db } from './db';

// The one module that knows where documents live. Tenant data sits under its
// client document, so every tenant read starts from a client id.
export const paths = {
  clients: () => db.collection('clients'),
  client: (clientId: string) => db.collection('clients').doc(clientId),
  clientName: (nameKey: string) => db.collection('client_names').doc(nameKey),
  clientUsers: (clientId: string) => db.collection('clients').doc(clientId).collection('users'),
  clientUser: (clientId: string, uid: string) =>
    db.collection('clients').doc(clientId).collection('users').doc(uid),
  superAdmins: () => db.collection('super_admins'),
  superAdmin: (uid: string) => db.collection('super_admins').doc(uid),
  auditLogs: () => db.collection('audit_logs'),
  auditLog: (id: string) => db.collection('audit_logs').doc(id),
  rateLimit: (key: string) => db.collection('rate_limits').doc(key),
  // ---- folders and questions (issue 6)
  clientFolders: (clientId: string) => db.collection('clients').doc(clientId).collection('folders'),
  clientFolder: (clientId: string, folderId: string) => db.collection('clients').doc(clientId).collection('folders').doc(folderId),
  clientQuestions: (clientId: string) => db.collection('clients').doc(clientId).collection('questions'),
  clientQuestion: (clientId: string, questionId: string) =>
    db.collection('clients').doc(clientId).collection('questions').doc(questionId),
  // ---- tests, frozen versions and share codes (issue 6)
  clientTests: (clientId: string) => db.collection('clients').doc(clientId).collection('tests'),
  clientTest: (clientId: string, testId: string) => db.collection('clients').doc(clientId).collection('tests').doc(testId),
  // Attempts arrive with the attempts issue; tests need to know whether any exist.
  clientAttempts: (clientId: string) => db.collection('clients').doc(clientId).collection('attempts'),
};

/** Collection ids as they appear in firestore.indexes.json. */
export const COLLECTION_IDS = {
  clients: 'clients',
  users: 'users',
  superAdmins: 'super_admins',
  auditLogs: 'audit_logs',
} as const;
