// Makes the Storage emulator start offline. firebase-tools runs Google's Cloud Storage rules
// runtime (a jar it downloads from storage.googleapis.com on first use) beside the emulator;
// without internet access that download fails and so does the emulator. Unless the real jar is
// already cached (or STORAGE_EMULATOR_BINARY_PATH names one), we build a stand-in that denies every
// client request, which is all storage.rules asks for (docs/operations.md, "Storage emulator offline").
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cacheDir = process.env.FIREBASE_EMULATORS_PATH || join(homedir(), '.cache', 'firebase', 'emulators');
const source = join(root, 'scripts', 'storage-rules-runtime', 'DenyAllRulesRuntime.java');
const buildDir = join(root, '.emulators', 'storage-rules-runtime');
const runtimeJar = join(root, '.emulators', 'storage-rules-runtime.jar');

export function storageEmulatorEnv() {
  if (process.env.STORAGE_EMULATOR_BINARY_PATH) return {};
  const cached = existsSync(cacheDir)
    ? readdirSync(cacheDir).filter((f) => /^cloud-storage-rules-runtime-v[\d.]+\.jar$/.test(f))
    : [];
  if (cached.length > 0) return {}; // firebase-tools finds its own cached jar
  if (!existsSync(runtimeJar) || statSync(runtimeJar).mtimeMs < statSync(source).mtimeMs) buildRuntimeJar();
  return { STORAGE_EMULATOR_BINARY_PATH: runtimeJar };
}

function buildRuntimeJar() {
  mkdirSync(buildDir, { recursive: true });
  const manifest = join(buildDir, 'MANIFEST.MF');
  writeFileSync(manifest, 'Main-Class: DenyAllRulesRuntime\n');
  try {
    execFileSync('javac', ['--release', '11', '-d', buildDir, source], { stdio: 'inherit' });
    const classes = readdirSync(buildDir).filter((f) => f.endsWith('.class'));
    execFileSync('jar', ['cfm', runtimeJar, manifest, ...classes], { cwd: buildDir, stdio: 'inherit' });
  } catch {
    throw new Error(
      'Building the offline Storage rules runtime needs `javac` and `jar` from a JDK (apt-get install openjdk-17-jdk-headless).',
    );
  }
}
