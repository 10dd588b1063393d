import assert from 'node:assert/strict';
import { crc32, deflateSync } from 'node:zlib';
import type { ExportMedia, ExportQuestion } from '../../functions/src/interchange/exportModel';
import type { ParsedBank } from '../../functions/src/interchange/model';
import { importEntries, type MediaPlan } from '../../functions/src/questions/bankEntries';
import { normalizeQuestion, QuestionInput } from '../../functions/src/questions/schemas';

// Test helper: a question as POST /api/questions stores it and as the export reads it, and a bank
// file read back through what the import does (media resolved, the schema), stored again, so that
// a round trip compares stored questions field for field.

/** A PNG chunk: its length, type, data and CRC. */
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A whole grey PNG of this size (a media file the bank's sniffing and image-size both read). */
export function pngOfSize(width: number, height: number): Uint8Array {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 0, 0, 0, 0], 8);
  const rows = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) rows[y * (width + 1)] = 0;
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', header),
      chunk('IDAT', deflateSync(rows)),
      chunk('IEND', Buffer.alloc(0)),
    ]),
  );
}

export const IMAGE_ID = 'org-1.0b5e3c1a-1111-4c4c-8888-0000000000aa';
export const MEDIA: ExportMedia = new Map([
  [IMAGE_ID, { name: 'map.png', content_type: 'image/png', bytes: pngOfSize(400, 300) }],
]);

/** The question as the bank stores it, and as the export reads it (absent fields null). */
export function stored(input: Record<string, unknown>, id = 'q1'): { stored: unknown; exported: ExportQuestion } {
  const parsed = QuestionInput.safeParse(input);
  assert.ok(parsed.success, JSON.stringify(parsed.error?.issues));
  const question = normalizeQuestion(parsed.data);
  return {
    stored: question,
    exported: { id, category: null, title: null, feedback: null, ...question } as unknown as ExportQuestion,
  };
}

/** The bank's questions stored again: each file of it stored under the id of the export's media with its bytes. */
export function storedAgain(
  bank: ParsedBank,
  media: ExportMedia = MEDIA,
): { questions: unknown[]; warnings: string[][] } {
  const plan: MediaPlan = new Map(
    [...bank.media].map(([name, file]) => {
      const same = [...media].find(([, m]) => Buffer.from(m.bytes).equals(Buffer.from(file.bytes)));
      return [name, same ? { id: same[0] } : { refused: `no media has the bytes of ${name}` }];
    }),
  );
  const entries = importEntries(bank, plan);
  assert.deepEqual(
    entries.filter((e) => e.report.status !== 'ok').map((e) => e.report),
    [],
    'every question imports',
  );
  return {
    questions: entries.map((e) => normalizeQuestion(e.question!)),
    warnings: entries.map((e) => e.report.warnings),
  };
}

/** A hotspot placing points on the map of MEDIA: labelled correct areas of every shape (ddmarker's zones). */
export const HOTSPOT_ON_MAP = {
  question_type: 'hotspot',
  question_text: 'Mark the stations on the map.',
  marks: 3,
  difficulty: 'medium',
  image: { src: `/api/media/${IMAGE_ID}`, width: 400, height: 300 },
  select: 'points',
  areas: [
    { shape: 'circle', coords: [322, 213, 10], correct: true, label: 'Station' },
    { shape: 'rect', coords: [10, 20, 110, 70], correct: true, label: 'Station' },
    { shape: 'poly', coords: [200, 200, 250, 200, 225, 240], correct: true, label: 'Park' },
  ],
};
