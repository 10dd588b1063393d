// Writes firebase.<name>.json: firebase.json with every emulator port moved by
// `offset`, so several people (or test runs) can use the emulators at once.
// Use with FIREBASE_JSON=firebase.<name>.json and API_BASE_URL=http://127.0.0.1:<hosting port>.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './emulators.mjs';

const [name, offsetText] = process.argv.slice(2);
const offset = Number(offsetText);
if (!name || !Number.isInteger(offset) || offset <= 0) {
  console.error('usage: node scripts/isolated-config.mjs <name> <port offset>');
  process.exit(2);
}
const config = JSON.parse(readFileSync(join(root, 'firebase.json'), 'utf8'));
const emulators = config.emulators;
for (const value of Object.values(emulators)) {
  if (value && typeof value === 'object' && typeof value.port === 'number') value.port += offset;
}
emulators.firestore.websocketPort = 9150 + offset;
// Far from the other ports: 9299 + offset and 9499 + offset would be another offset's auth or eventarc port,
emulators.eventarc = { host: '127.0.0.1', port: 20000 + offset };
emulators.tasks = { host: '127.0.0.1', port: 21000 + offset };
// The hub and logging ports are 100 apart: with offsets 200 apart they would land on another offset's hosting port.
emulators.hub.port = 22000 + offset;
emulators.logging.port = 23000 + offset;
// Its own build of the web app: `npm start` / `npm test` on this config build into it.
config.hosting.public = `web/dist-${name}`;
const file = `firebase.${name}.json`;
writeFileSync(join(root, file), JSON.stringify(config, null, 2) + '\n');
console.log(`FIREBASE_JSON=${file} API_BASE_URL=http://127.0.0.1:${emulators.hosting.port}`);
