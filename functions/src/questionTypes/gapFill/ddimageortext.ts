import {
  element,
  elements,
  htmlLine,
  Refusal,
  textOf,
  zoneAt,
  type DropZone,
  type XmlElement,
} from '../../interchange';

// Pure: a Moodle drag-and-drop onto image question's drags and drop boxes (labelledImage.ts makes
// them a gap fill). A drag is a text (its line breaks, written <br/>, become spaces) or an image,
// which stands for its text when it has one (Moodle shows that text to a screen reader); a drop box
// is where its `xleft`, `ytop` put it and expects the drag its `choice` numbers.

interface Drag {
  text: string;
  group: string;
  infinite: boolean;
}

const valueOf = (holder: XmlElement, name: string): string => {
  const found = element(holder, name);
  return found ? textOf(found).trim() : '';
};

/** The drag's text as one plain line: `island<br/>arc` → "island arc". */
const plainLine = (html: string): string => htmlLine(html).text;

/** Every drag by its number; an image drag by its text, said in `warnings`, or a refusal when it has none. */
function dragsOf(question: XmlElement, warnings: string[]): Map<string, Drag> {
  const drags = new Map<string, Drag>();
  const images: string[] = [];
  for (const drag of elements(question, 'drag')) {
    const no = valueOf(drag, 'no');
    const text = plainLine(valueOf(drag, 'text'));
    if (elements(drag, 'file').length > 0) {
      if (text === '')
        throw new Refusal(
          `Drag ${no} is an image without text: a label here is a text, so image drags cannot be carried`,
          'unsupported',
        );
      images.push(`${no} ("${text}")`);
    }
    if (text === '') throw new Refusal(`Drag ${no} has no text`);
    drags.set(no, {
      text,
      group: valueOf(drag, 'draggroup') || '1',
      infinite: element(drag, 'infinite') !== undefined,
    });
  }
  if (drags.size === 0) throw new Refusal('It has no drags');
  if (images.length > 0)
    warnings.push(`The image drags ${images.join(', ')} are carried as their text: labels here are texts`);
  return drags;
}

/** The drop boxes, each named by its own text or its place, expecting its drag's text; the drags' texts; whether one may be used again. */
export function dropBoxes(
  question: XmlElement,
  warnings: string[],
): { zones: DropZone[]; labels: string[]; reusable: boolean } {
  const drags = dragsOf(question, warnings);
  const zones = elements(question, 'drop').map((drop, i): DropZone => {
    const choice = valueOf(drop, 'choice');
    const drag = drags.get(choice);
    if (!drag) throw new Refusal(`Drop box ${i + 1} expects drag ${choice}, which the question does not have`);
    const x = Number(valueOf(drop, 'xleft'));
    const y = Number(valueOf(drop, 'ytop'));
    if (!Number.isFinite(x) || !Number.isFinite(y)) throw new Refusal(`Drop box ${i + 1} has no place (xleft, ytop)`);
    const label = plainLine(valueOf(drop, 'text'));
    return { name: label ? `Box ${i + 1} (${label})` : zoneAt(i + 1, x, y), answer: drag.text };
  });
  const all = [...drags.values()];
  if (new Set(all.map((d) => d.group)).size > 1)
    warnings.push("The drags' groups are not carried: here any label may be dropped into any box");
  const infinite = all.filter((d) => d.infinite).length;
  if (infinite > 0 && infinite < all.length)
    warnings.push(`${infinite} of the ${all.length} drags may be used more than once in Moodle; here every label may`);
  if (new Set(all.map((d) => d.text)).size < all.length) warnings.push('Drags of the same text are one label here');
  return { zones, labels: all.map((d) => d.text), reusable: infinite > 0 };
}
