import './env';
import { getApps, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { getFirestore } from 'firebase-admin/firestore';
import { PROJECT_ID } from './env';

// Fixtures are written straight through the Admin SDK, as an operator would;
// the behaviour under test is always reached over HTTP.
if (getApps().length === 0) initializeApp({ projectId: PROJECT_ID });

export const adminAuth = getAuth();
export const adminDb = getFirestore();
