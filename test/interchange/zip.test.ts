import assert from 'node:assert/strict';
import { BankFileRefused } from '../../functions/src/interchange/model';
import { readZip, ZIP_LIMITS } from '../../functions/src/interchange/zip';
import { buildZip, lieAboutSizes, patchBytes } from './zipBuilder';

const text = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString('utf8');

async function refusal(promise: Promise<unknown>): Promise<BankFileRefused> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof BankFileRefused, `expected BankFileRefused, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the zip to be refused');
}

describe('readZip', () => {
  it('gives every file by its path, inflated or stored, and skips directories', async () => {
    const deflated = await buildZip({ 'items/': '', 'items/q1.xml': '<a/>', 'imsmanifest.xml': '<m/>' });
    const files = await readZip(deflated);
    assert.deepEqual([...files.keys()].sort(), ['imsmanifest.xml', 'items/q1.xml']);
    assert.equal(text(files.get('items/q1.xml')), '<a/>');

    const stored = await readZip(await buildZip({ 'a.txt': 'stored' }, { store: true }));
    assert.equal(text(stored.get('a.txt')), 'stored');
  });

  it('refuses a zip bomb: 60 MB of zeros compressed to a few kilobytes', async function () {
    this.timeout(20_000);
    const bomb = await buildZip({ 'zeros.bin': new Uint8Array(60 * 1024 * 1024) });
    assert.ok(bomb.length < 200_000, `the bomb is small (${bomb.length} bytes)`);
    const err = await refusal(readZip(bomb));
    assert.match(err.message, /unpacks to more than 50 MB/);
  });

  it('refuses a bomb whose header understates its size, on the bytes it actually inflates', async function () {
    this.timeout(20_000);
    const bomb = lieAboutSizes(await buildZip({ 'zeros.bin': new Uint8Array(60 * 1024 * 1024) }), 100);
    const started = Date.now();
    const err = await refusal(readZip(bomb));
    assert.match(err.message, /size does not match its header/);
    assert.ok(Date.now() - started < 5_000, 'stopped early, not after inflating it all');
  });

  it('refuses many files whose sizes together pass the bound', async () => {
    const files: Record<string, Uint8Array> = {};
    for (let i = 0; i < 3; i++) files[`f${i}.bin`] = new Uint8Array(1024);
    const err = await refusal(readZip(await buildZip(files), { maxEntries: 10, maxTotalBytes: 2_500 }));
    assert.match(err.message, /unpacks to more than/);
  });

  it('refuses 1,001 entries and takes 1,000', async function () {
    this.timeout(20_000);
    const files: Record<string, string> = {};
    for (let i = 0; i < 1_000; i++) files[`f${i}.txt`] = 'x';
    assert.equal((await readZip(await buildZip(files))).size, 1_000);
    files['one-more.txt'] = 'x';
    const err = await refusal(readZip(await buildZip(files)));
    assert.match(err.message, /1001 entries, more than the 1000/);
    assert.equal(ZIP_LIMITS.maxEntries, 1_000);
  });

  it('refuses an entry whose path leaves the package with ../', async () => {
    const zip = patchBytes(await buildZip({ 'ok.txt': 'fine', 'xx/evil.txt': 'evil' }), 'xx/evil', '../evil');
    const err = await refusal(readZip(zip));
    assert.match(err.message, /leaves the package.*\.\.\/evil\.txt/);
  });

  it('refuses an absolute path, a drive letter and a backslash', async () => {
    const absolute = patchBytes(await buildZip({ 'xetc/passwd': 'x' }), 'xetc/', '/etc/');
    assert.match((await refusal(readZip(absolute))).message, /absolute path/);
    const drive = patchBytes(await buildZip({ 'CCwin.ini': 'x' }), 'CCwin', 'C:win');
    assert.match((await refusal(readZip(drive))).message, /absolute path/);
    const backslash = patchBytes(await buildZip({ 'a_b.txt': 'x' }), 'a_b', 'a\\b');
    assert.match((await refusal(readZip(backslash))).message, /leaves the package|backslash/);
  });

  it('refuses a name given twice', async () => {
    const zip = patchBytes(await buildZip({ 'a1.txt': 'one', 'a2.txt': 'two' }), 'a2.txt', 'a1.txt');
    assert.match((await refusal(readZip(zip))).message, /appears twice/);
  });

  it('refuses bytes that are not a zip', async () => {
    assert.match((await refusal(readZip(Buffer.from('not a zip at all')))).message, /not a zip archive/);
  });
});
