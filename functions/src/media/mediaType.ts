// Pure: what a media file is, from its bytes alone. A file's name and declared
// type are the sender's word and are never believed: a script named .png is
// refused, a PNG named .mp3 is stored and served as a PNG. SVG is refused
// (it is a document that can run script), and so is anything not listed here.

/** The most one media file may weigh. */
export const MAX_MEDIA_BYTES = 2 * 1024 * 1024;
/** The most the media of one import may weigh together (after identical files are counted once). */
export const MAX_IMPORT_MEDIA_BYTES = 20 * 1024 * 1024;

/** What media is served as: the Content-Type of each allowed kind. */
export const MEDIA_CONTENT_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
] as const;
export type MediaContentType = (typeof MEDIA_CONTENT_TYPES)[number];

/**
 * file-type's extension → what we serve. Ogg counts when it holds Vorbis or
 * Opus audio (what .ogg/.opus files are); an Ogg video, FLAC or Speex stream is not on the list.
 */
const ALLOWED: Record<string, MediaContentType> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  mp3: 'audio/mpeg',
  ogg: 'audio/ogg',
  opus: 'audio/ogg',
  wav: 'audio/wav',
};

export type Sniffed = { ok: true; contentType: MediaContentType } | { ok: false; reason: string };

/** What the bytes are, or why they are refused (too large, empty, or not an allowed kind). */
export async function sniffMedia(bytes: Uint8Array): Promise<Sniffed> {
  if (bytes.byteLength === 0) return { ok: false, reason: 'the file is empty' };
  if (bytes.byteLength > MAX_MEDIA_BYTES) {
    return { ok: false, reason: `the file is ${bytes.byteLength} bytes; media may be at most ${MAX_MEDIA_BYTES}` };
  }
  // ESM-only; loaded on first use (Node's require of an ES module), so instances that never import media skip it.
  const { fileTypeFromBuffer } = await import('file-type/core');
  const found = await fileTypeFromBuffer(bytes);
  const contentType = found && ALLOWED[found.ext];
  if (contentType) return { ok: true, contentType };
  return {
    ok: false,
    reason: found
      ? `its content is ${found.mime}; media may be PNG, JPEG, GIF, WebP, MP3, Ogg or WAV`
      : 'its content is not a recognised image or audio file; media may be PNG, JPEG, GIF, WebP, MP3, Ogg or WAV',
  };
}
