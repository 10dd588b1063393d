// Writes firebase.<name>.json: firebase.json with every emulator port moved by
// `offset`, so several people (or test runs) can use the emulators at once.
// Use with FIREBASE_JSON=firebase.<name>.json and API_BASE_URL=http://127.0.0.1:<hosting port>.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './emulators.mjs';

const [name, offsetText] = process.argv.slice(2);
const offset = Number(offsetText);
if (!name || !Number.isInteger(offset) || offset <= 0 || offset > 10000) {
  console.error('usage: node scripts/isolated-config.mjs <name> <port offset, 1 to 10000>');
  process.exit(2);
}
const config = JSON.parse(readFileSync(join(root, 'firebase.json'), 'utf8'));
const emulators = config.emulators;
for (const value of Object.values(emulators)) {
  if (value && typeof value === 'object' && typeof value.port === 'number') value.port += offset;
}
emulators.firestore.websocketPort = 9150 + offset;
// Not 9199 + offset: that is the Auth port (9099) of a config whose offset is 100 more.
emulators.storage.port = 9177 + offset;
// The four helper ports sit side by side, four per offset, far above the others: two configs
// with different offsets never share one (ranges a fixed distance apart would, for offsets that far apart).
const helperBase = 20000 + 4 * offset;
emulators.eventarc = { host: '127.0.0.1', port: helperBase };
emulators.tasks = { host: '127.0.0.1', port: helperBase + 1 };
emulators.hub.port = helperBase + 2;
emulators.logging.port = helperBase + 3;
// Its own build of the web app: `npm start` / `npm test` on this config build into it.
config.hosting.public = `web/dist-${name}`;
const file = `firebase.${name}.json`;
writeFileSync(join(root, file), JSON.stringify(config, null, 2) + '\n');
console.log(`FIREBASE_JSON=${file} API_BASE_URL=http://127.0.0.1:${emulators.hosting.port}`);
