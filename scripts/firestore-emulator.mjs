// Finds a Firestore emulator that runs offline and returns the env that makes
// firebase-tools use it. firebase-tools would otherwise download the jar on
// first use, which fails on machines without internet access.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = join(homedir(), '.cache', 'firebase', 'emulators');
const gcloudJar = '/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud-firestore-emulator.jar';
const launcherDir = join(root, '.emulators');
const launcherJar = join(launcherDir, 'firestore-emulator-launcher.jar');

export function firestoreEmulatorEnv() {
  if (process.env.FIRESTORE_EMULATOR_BINARY_PATH) return {};
  const cached = existsSync(cacheDir)
    ? readdirSync(cacheDir).filter((f) => /^cloud-firestore-emulator-v[\d.]+\.jar$/.test(f))
    : [];
  if (cached.length > 0) return {}; // firebase-tools finds its own cached jar
  if (existsSync(gcloudJar)) {
    if (!existsSync(launcherJar)) buildLauncherJar();
    return { FIRESTORE_EMULATOR_BINARY_PATH: launcherJar };
  }
  throw new Error(
    'No Firestore emulator found. Install one of:\n' +
      '  - Debian/Ubuntu: apt-get install google-cloud-cli-firestore-emulator\n' +
      '  - gcloud: gcloud components install cloud-firestore-emulator\n' +
      '  - or run `npx firebase setup:emulators:firestore` once on a machine with internet access.',
  );
}

// Google's jar has no Main-Class, and firebase-tools starts it with `java -jar`;
// a manifest-only jar that points at it fixes that.
function buildLauncherJar() {
  mkdirSync(launcherDir, { recursive: true });
  const manifest = join(launcherDir, 'MANIFEST.MF');
  writeFileSync(
    manifest,
    'Main-Class: com.google.cloud.datastore.emulator.firestore.CloudFirestore\n' + `Class-Path: ${gcloudJar}\n`,
  );
  try {
    execFileSync('jar', ['cfm', launcherJar, manifest], { stdio: 'inherit' });
  } catch {
    throw new Error(
      'Building the Firestore emulator launcher needs `jar` from a JDK (apt-get install openjdk-17-jdk-headless).',
    );
  }
}
