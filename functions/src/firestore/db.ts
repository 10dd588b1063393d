import { getApps, initializeApp } from 'firebase-admin/app';
import { getAuth } from 'firebase-admin/auth';
import { getFirestore } from 'firebase-admin/firestore';
import { installCallWatch } from './callWatch';

if (getApps().length === 0) initializeApp();

export const db = getFirestore();
export const auth = getAuth();
// Here, as the clients are made: every call of a request is on its deadline, whoever else wraps the SDK later.
installCallWatch(db, auth);
