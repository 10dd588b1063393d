import { useContext, useEffect, useRef, type MouseEvent, type ReactNode } from 'react';
import type { Schemas } from '../../api';
import { MEDIA_ATTRIBUTE, mediaIdOf } from '../../questionHtml';
import { loadMediaIn, MediaLoaderContext } from '../../QuestionText';
import { imagePixel } from './definition';

type Image = Schemas['HotspotImage'];

/** A length in the image's pixels as a share of its side: what stands over the image scales with it. */
export const share = (part: number, whole: number) => `${(part / whole) * 100}%`;

/** Where a pointer at (`clientX`, `clientY`) is on the image drawn in `box`, in the image's own pixels. */
export const imagePointAt = (clientX: number, clientY: number, box: DOMRect, image: Image) => ({
  x: imagePixel(clientX - box.left, box.width, image.width),
  y: imagePixel(clientY - box.top, box.height, image.height),
});

/**
 * A hotspot's image, scaled to the page at its own proportions, with what stands over it. A
 * stored image is fetched with the reader's credentials, as a question text's media are; a click
 * on it (when `onPick`) is a point in the image's own pixels.
 */
export function Picture({
  image,
  onPick,
  children,
}: {
  image: Image;
  onPick?: (x: number, y: number) => void;
  children: ReactNode;
}) {
  const load = useContext(MediaLoaderContext);
  const ref = useRef<HTMLDivElement>(null);
  const mediaId = mediaIdOf(image.src);
  useEffect(() => {
    const root = ref.current;
    return root && load && mediaId ? loadMediaIn(root, load) : undefined;
  }, [load, mediaId]);
  const click = (e: MouseEvent<HTMLImageElement>) => {
    // A fieldset disabled (time up) disables its buttons, not a click on an image.
    if (!onPick || e.currentTarget.closest('fieldset')?.disabled) return;
    const point = imagePointAt(e.clientX, e.clientY, e.currentTarget.getBoundingClientRect(), image);
    onPick(point.x, point.y);
  };
  return (
    <div ref={ref} className="hotspot-image" style={{ maxWidth: image.width }}>
      <img
        {...(mediaId ? { [MEDIA_ATTRIBUTE]: mediaId } : { src: image.src })}
        alt={image.alt || 'The question’s image'}
        width={image.width}
        height={image.height}
        className={onPick ? 'hotspot-target' : undefined}
        onClick={click}
      />
      {children}
    </div>
  );
}
