// Pure: what a media file is, from its bytes alone. A file's name and declared
// type are the sender's word and are never believed: a script named .png is
// refused, a PNG named .mp3 is stored and served as a PNG. SVG is refused
// (it is a document that can run script), and so is anything not listed here.

/** The most one image or sound may weigh. */
export const MAX_MEDIA_BYTES = 2 * 1024 * 1024;
/** The most one video may weigh: a minute or two of a lesson, not a film. */
export const MAX_VIDEO_BYTES = 20 * 1024 * 1024;
/** The most the media of one import may weigh together (after identical files are counted once). */
export const MAX_IMPORT_MEDIA_BYTES = 20 * 1024 * 1024;
/** The most one file a taker attaches to an essay may weigh. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

/** What media is served as: the Content-Type of each allowed kind. */
export const MEDIA_CONTENT_TYPES = [
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
  'video/mp4',
  'video/webm',
] as const;
export type MediaContentType = (typeof MEDIA_CONTENT_TYPES)[number];

/** What a taker's attached file may be: a document or a photo of handwritten work. */
export const ATTACHMENT_CONTENT_TYPES = ['application/pdf', 'image/png', 'image/jpeg'] as const;
export type AttachmentContentType = (typeof ATTACHMENT_CONTENT_TYPES)[number];

/** A kind of file the bytes may be: file-type's extension → what we serve, the most such a file may weigh, and the list a refusal names. */
interface Kinds<T extends string> {
  allowed: Record<string, T>;
  maxBytes: (type: T) => number;
  /** The largest of maxBytes: past it nothing is even sniffed. */
  ceiling: number;
  names: string;
}

/**
 * Ogg counts when it holds Vorbis or Opus audio (what .ogg/.opus files are); an Ogg video, FLAC or
 * Speex stream is not on the list. Videos may be larger than pictures and sounds.
 */
const MEDIA: Kinds<MediaContentType> = {
  allowed: {
    png: 'image/png',
    jpg: 'image/jpeg',
    gif: 'image/gif',
    webp: 'image/webp',
    mp3: 'audio/mpeg',
    ogg: 'audio/ogg',
    opus: 'audio/ogg',
    wav: 'audio/wav',
    mp4: 'video/mp4',
    webm: 'video/webm',
  },
  maxBytes: (type) => (type.startsWith('video/') ? MAX_VIDEO_BYTES : MAX_MEDIA_BYTES),
  ceiling: MAX_VIDEO_BYTES,
  names: 'PNG, JPEG, GIF, WebP, MP3, Ogg, WAV, MP4 or WebM',
};

const ATTACHMENT: Kinds<AttachmentContentType> = {
  allowed: { pdf: 'application/pdf', png: 'image/png', jpg: 'image/jpeg' },
  maxBytes: () => MAX_ATTACHMENT_BYTES,
  ceiling: MAX_ATTACHMENT_BYTES,
  names: 'PDF, PNG or JPEG',
};

export type Sniffed<T extends string = MediaContentType> = { ok: true; contentType: T } | { ok: false; reason: string };

async function sniff<T extends string>(bytes: Uint8Array, kinds: Kinds<T>, what: string): Promise<Sniffed<T>> {
  if (bytes.byteLength === 0) return { ok: false, reason: 'the file is empty' };
  if (bytes.byteLength > kinds.ceiling) {
    return { ok: false, reason: `the file is ${bytes.byteLength} bytes; ${what} may be at most ${kinds.ceiling}` };
  }
  // ESM-only; loaded on first use (Node's require of an ES module), so instances that never import media skip it.
  const { fileTypeFromBuffer } = await import('file-type/core');
  const found = await fileTypeFromBuffer(bytes);
  const contentType = found && kinds.allowed[found.ext];
  if (!contentType) {
    return {
      ok: false,
      reason: found
        ? `its content is ${found.mime}; ${what} may be ${kinds.names}`
        : `its content is not a recognised file of an allowed kind; ${what} may be ${kinds.names}`,
    };
  }
  const limit = kinds.maxBytes(contentType);
  if (bytes.byteLength > limit) {
    return { ok: false, reason: `the file is ${bytes.byteLength} bytes; ${contentType} may be at most ${limit}` };
  }
  return { ok: true, contentType };
}

/** What the bytes are, or why they are refused (too large for their kind, empty, or not an allowed kind). */
export const sniffMedia = (bytes: Uint8Array): Promise<Sniffed> => sniff(bytes, MEDIA, 'media');

/** What a taker's attached file is, or why it is refused: a PDF, PNG or JPEG of at most 10 MB, by its content. */
export const sniffAttachment = (bytes: Uint8Array): Promise<Sniffed<AttachmentContentType>> =>
  sniff(bytes, ATTACHMENT, 'an attachment');
