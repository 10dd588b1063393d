import type { ExportMediaFile } from '../interchange/export/types';

// Where an export finds the bytes of the media a question's HTML refers to.
// The media store provides it (from app.ts); until then none is found and the
// references stay links to /api/media/….

export type MediaSource = (clientId: string, mediaId: string) => Promise<ExportMediaFile | undefined>;

const NONE: MediaSource = async () => undefined;
let current: MediaSource = NONE;

export function provideMediaSource(source: MediaSource): void {
  current = source;
}

export const mediaSource = (): MediaSource => current;
