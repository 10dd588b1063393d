// Loaded only when a test holds the type (its module's loader), with the attempt.
import { useState } from 'react';
import type { TakerInputProps } from '../module';
import { answerOfPicks, areaName, boxOf, MAX_POINTS, picksOf, pointOf, pointText, shownPick } from './definition';
import { Picture, share } from './picture';

type Image = NonNullable<TakerInputProps['question']['image']>;
type PartProps = TakerInputProps & { image: Image };

/**
 * Each area a toggle button (`aria-pressed`) over the image where it lies, for a pointer, and the
 * same toggles as a list below it: the way by keyboard and screen reader. The buttons over the
 * image are hidden from assistive technology and the tab order, so each area is met once.
 */
function AreasInput({ question, image, value, onAnswer }: PartProps) {
  const areas = question.areas ?? [];
  const chosen = new Set(picksOf(value));
  const toggle = (pick: string) => {
    const next = new Set(chosen);
    if (next.has(pick)) next.delete(pick);
    else next.add(pick);
    onAnswer(answerOfPicks(areas.map((_, i) => String(i + 1)).filter((p) => next.has(p))));
  };
  return (
    <>
      <p className="hint">Choose the areas, on the image or in the list below it.</p>
      <Picture image={image}>
        {areas.map((area, i) => {
          const box = boxOf(area);
          const pick = String(i + 1);
          return (
            <button
              key={pick}
              type="button"
              className="hotspot-area"
              aria-hidden="true"
              tabIndex={-1}
              aria-pressed={chosen.has(pick)}
              title={areaName(area, i + 1)}
              style={{
                left: share(box.left, image.width),
                top: share(box.top, image.height),
                width: share(box.width, image.width),
                height: share(box.height, image.height),
              }}
              onClick={() => toggle(pick)}
            />
          );
        })}
      </Picture>
      <ul className="plain hotspot-list">
        {areas.map((area, i) => {
          const pick = String(i + 1);
          return (
            <li key={pick}>
              <button
                type="button"
                className="hotspot-toggle"
                aria-pressed={chosen.has(pick)}
                onClick={() => toggle(pick)}
              >
                {areaName(area, i + 1)}
              </button>
            </li>
          );
        })}
      </ul>
    </>
  );
}

/**
 * Points placed by a click on the image, or typed as X and Y in the image's pixels ("Add a point":
 * no action needs a pointer), each listed with its Remove button; past the most, refused in words.
 */
function PointsInput({ question, image, name, value, onAnswer }: PartProps) {
  const points = picksOf(value);
  const most = question.max_points ?? MAX_POINTS;
  const [said, setSaid] = useState('');
  const [x, setX] = useState('');
  const [y, setY] = useState('');
  const add = (px: number, py: number): boolean => {
    if (points.length >= most) {
      setSaid(`You may place at most ${most} ${most === 1 ? 'point' : 'points'}: remove one first.`);
      return false;
    }
    const point = pointText(px, py);
    setSaid(`Point ${points.length + 1} placed: ${shownPick(point)}.`);
    onAnswer(answerOfPicks([...points, point]));
    return true;
  };
  const addTyped = () => {
    const [px, py] = [Number(x), Number(y)];
    const inside = x.trim() !== '' && y.trim() !== '' && px >= 0 && py >= 0 && px <= image.width && py <= image.height;
    if (!inside) setSaid(`X is 0 to ${image.width} and Y is 0 to ${image.height}, in the image’s pixels.`);
    else if (add(px, py)) {
      setX('');
      setY('');
    }
  };
  const axes = [
    { axis: 'X', text: x, setText: setX, most: image.width },
    { axis: 'Y', text: y, setText: setY, most: image.height },
  ];
  const remove = (i: number) => {
    setSaid(`Point ${i + 1} removed.`);
    onAnswer(answerOfPicks(points.filter((_, j) => j !== i)));
  };
  return (
    <>
      <p className="hint">
        Place up to {most} {most === 1 ? 'point' : 'points'}: click the image, or type a point’s X and Y below (in the
        image’s pixels, {image.width} × {image.height}, from its top left corner).
      </p>
      <Picture image={image} onPick={add}>
        {points.map((pick, i) => {
          const point = pointOf(pick);
          return point ? (
            <span
              key={i}
              className="hotspot-point"
              aria-hidden="true"
              style={{ left: share(point.x, image.width), top: share(point.y, image.height) }}
            >
              {i + 1}
            </span>
          ) : null;
        })}
      </Picture>
      {points.length > 0 && (
        <ol className="hotspot-list">
          {points.map((pick, i) => (
            <li key={i}>
              {shownPick(pick)}{' '}
              <button type="button" className="secondary" onClick={() => remove(i)}>
                Remove point {i + 1}
              </button>
            </li>
          ))}
        </ol>
      )}
      <div className="row" role="group" aria-label="Add a point">
        {axes.map(({ axis, text, setText, most }) => (
          <label key={axis}>
            {axis}{' '}
            <input
              id={`${name}-${axis}`}
              type="number"
              min="0"
              max={most}
              step="1"
              value={text}
              onChange={(e) => setText(e.target.value)}
            />
          </label>
        ))}
        <button type="button" onClick={addTyped}>
          Add a point
        </button>
      </div>
      <p aria-live="polite" className="hint">
        {said}
      </p>
    </>
  );
}

/** A hotspot's input: its areas to choose among, or points to place on the bare image. */
export function TakerInput(props: TakerInputProps) {
  const image = props.question.image;
  if (!image) return <p className="error">This question’s image is missing.</p>;
  return props.question.select === 'points' ? (
    <PointsInput {...props} image={image} />
  ) : (
    <AreasInput {...props} image={image} />
  );
}
