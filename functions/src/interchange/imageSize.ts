import { imageSize } from 'image-size';

// Pure: an image's width and height from its bytes (image-size reads the header of PNG, JPEG, GIF,
// WebP and the rest), or undefined when the bytes are no image it knows.

export function imageDimensions(bytes: Uint8Array): { width: number; height: number } | undefined {
  try {
    const { width, height } = imageSize(bytes);
    return width && height ? { width, height } : undefined;
  } catch {
    return undefined;
  }
}
