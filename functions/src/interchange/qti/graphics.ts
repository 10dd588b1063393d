import { Refusal } from '../model';
import { type XmlElement } from '../xml';
import { attr, collapse, kids, numberOf, qtiName, textOf } from './elements';
import { mediaReference } from './html';
import type { ItemReading } from './interactions';
import type { PlacedImage } from '../labelledImage';

// Pure: the image a graphic interaction shows (a hotspot's areas, a graphic gap match's boxes):
// the interaction's <object>, whose width and height are the frame of its coordinates.

/**
 * The interaction's image (an <object data> or, in QTI 3, an <img src>; a position object's is its
 * stage's): its source (a package file as a media placeholder), its size as given, its alt text.
 */
export function imageSource(item: ItemReading, within: XmlElement = item.interaction): PlacedImage & { data: string } {
  const holder = kids(within).find((k) => ['object', 'img'].includes(qtiName(k)));
  const data = holder && (attr(holder, 'data') ?? attr(holder, 'src'));
  if (!holder || !data) throw new Refusal('It has no image (an <object> or <img> to place its areas on)');
  const width = numberOf(attr(holder, 'width'));
  const height = numberOf(attr(holder, 'height'));
  const src = mediaReference(data, 'image', item.ctx);
  if (src === undefined) throw new Refusal(`Its image "${data}" cannot be carried: a lone item file holds no media`);
  const alt = collapse(attr(holder, 'alt') ?? textOf(holder));
  return {
    data,
    src,
    ...(width && height ? { width: Math.round(width), height: Math.round(height) } : {}),
    ...(alt ? { alt: alt.slice(0, 500) } : {}),
  };
}
