// Loaded when the question form first shows a hotspot's image: the taker's first load never holds it.
import { useEffect, useState, type PointerEvent } from 'react';
import type { Schemas } from '../../api';
import type { AreaDraft } from '../module';
import { areaName, boxOf, coordsText, EMPTY_AREA } from './definition';
import {
  closesPolygon,
  draggedCoords,
  drawnArea,
  movedCoords,
  polygonCoords,
  type DraggedShape,
  type ImagePoint,
} from './drawing';
import { imagePointAt, Picture } from './picture';

type Image = Schemas['HotspotImage'];
type Tool = 'select' | DraggedShape | 'poly';

/** What the pointer is doing now: drawing a rectangle or a circle, or moving an area. */
type Gesture =
  | { kind: 'draw'; shape: DraggedShape; start: ImagePoint; end: ImagePoint }
  | { kind: 'move'; index: number; start: ImagePoint; end: ImagePoint };

const TOOLS: Array<[Tool, string]> = [
  ['select', 'Select and move'],
  ['rect', 'Draw a rectangle'],
  ['circle', 'Draw a circle'],
  ['poly', 'Draw a polygon'],
];

const SHAPE_WORDS: Record<AreaDraft['shape'], string> = { rect: 'a rectangle', circle: 'a circle', poly: 'a polygon' };

/** An area as SVG over the image, in the image's pixels (the SVG's view box); its line as thick at any scale. */
function Shape({ shape, coords, className }: { shape: AreaDraft['shape']; coords: number[]; className: string }) {
  const line = { className, vectorEffect: 'non-scaling-stroke' } as const;
  if (shape === 'circle') return <circle cx={coords[0]} cy={coords[1]} r={coords[2]} {...line} />;
  if (shape === 'poly') {
    const points = coords.flatMap((c, i) => (i % 2 === 0 ? [`${c},${coords[i + 1]}`] : [])).join(' ');
    return <polygon points={points} {...line} />;
  }
  const box = boxOf({ shape, coords });
  return <rect x={box.left} y={box.top} width={box.width} height={box.height} {...line} />;
}

/**
 * The hotspot's areas drawn over its image: a rectangle or a circle by a drag (a circle from its
 * centre), a polygon by a click at each corner, closed on its first; an area selected by a click,
 * moved by a drag, marked correct or deleted. Each change is written to the areas' coordinate
 * fields, which stay the way by keyboard and for exact numbers, and said in a polite live region.
 * The drawing itself is for a pointer (touch too) and hidden from assistive technology.
 */
export function AreaDrawing({
  image,
  areas,
  onAreas,
}: {
  image: Image;
  areas: AreaDraft[];
  onAreas: (areas: AreaDraft[]) => void;
}) {
  const [tool, setTool] = useState<Tool>('rect');
  const [chosen, setChosen] = useState<number | null>(null);
  const [gesture, setGesture] = useState<Gesture | null>(null);
  const [corners, setCorners] = useState<ImagePoint[]>([]);
  const [said, setSaid] = useState('');
  // An area removed by its row's button may have been the one selected.
  const selected = chosen !== null && chosen < areas.length ? chosen : null;
  const side = Math.max(image.width, image.height);
  // Escape drops what is being drawn or moved.
  useEffect(() => {
    if (!gesture && corners.length === 0) return;
    const cancel = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setGesture(null);
      setCorners([]);
    };
    window.addEventListener('keydown', cancel);
    return () => window.removeEventListener('keydown', cancel);
  }, [gesture, corners.length]);

  const add = (shape: AreaDraft['shape'], coords: number[]) => {
    const n = areas.length + 1;
    onAreas([...areas, { ...EMPTY_AREA, shape, coords: coordsText(coords) }]);
    setChosen(n - 1);
    setSaid(`Area ${n} drawn: ${SHAPE_WORDS[shape]} at ${coordsText(coords)}.`);
  };
  const change = (index: number, to: Partial<AreaDraft>) =>
    onAreas(areas.map((area, i) => (i === index ? { ...area, ...to } : area)));
  const closePolygon = () => {
    add('poly', polygonCoords(corners));
    setCorners([]);
  };
  const pick = (tool: Tool) => {
    setTool(tool);
    setCorners([]);
  };

  const pointOf = (e: PointerEvent<SVGSVGElement>) =>
    imagePointAt(e.clientX, e.clientY, e.currentTarget.getBoundingClientRect(), image);
  const press = (e: PointerEvent<SVGSVGElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    const point = pointOf(e);
    if (tool === 'poly') {
      if (closesPolygon(corners, point, side / 50)) closePolygon();
      else setCorners([...corners, point]);
      return;
    }
    e.currentTarget.setPointerCapture(e.pointerId);
    if (tool !== 'select') {
      setGesture({ kind: 'draw', shape: tool, start: point, end: point });
      return;
    }
    const hit = (e.target as Element).closest('[data-area]')?.getAttribute('data-area');
    const index = hit == null ? null : Number(hit);
    setChosen(index);
    if (index !== null) {
      setGesture({ kind: 'move', index, start: point, end: point });
      setSaid(`${areaName(areas[index], index + 1)} selected.`);
    }
  };
  const drag = (e: PointerEvent<SVGSVGElement>) => {
    if (gesture) setGesture({ ...gesture, end: pointOf(e) });
  };
  const release = () => {
    if (!gesture) return;
    setGesture(null);
    if (gesture.kind === 'draw') {
      const coords = draggedCoords(gesture.shape, gesture.start, gesture.end);
      if (coords) add(gesture.shape, coords);
      return;
    }
    const coords = moved(gesture);
    if (!coords) return;
    change(gesture.index, { coords: coordsText(coords) });
    setSaid(`${areaName(areas[gesture.index], gesture.index + 1)} moved to ${coordsText(coords)}.`);
  };
  /** The coordinates of the area a move gesture drags, where it is now; null before it has moved. */
  function moved(move: Extract<Gesture, { kind: 'move' }>): number[] | null {
    const area = drawnArea(areas[move.index]);
    const [dx, dy] = [move.end.x - move.start.x, move.end.y - move.start.y];
    return area && (dx !== 0 || dy !== 0) ? movedCoords(area, dx, dy, image.width, image.height) : null;
  }

  const drawing = gesture?.kind === 'draw' ? draggedCoords(gesture.shape, gesture.start, gesture.end) : null;
  const chosenArea = selected === null ? null : areas[selected];
  return (
    <div className="hotspot-drawing">
      <div className="row" role="group" aria-label="Drawing tool">
        {TOOLS.map(([name, label]) => (
          <button
            key={name}
            type="button"
            className="secondary"
            aria-pressed={tool === name}
            onClick={() => pick(name)}
          >
            {label}
          </button>
        ))}
      </div>
      <p className="hint">
        {tool === 'select'
          ? 'Click an area to select it, drag it to move it.'
          : tool === 'poly'
            ? 'Click each corner, then click the first corner again (or Close the polygon).'
            : `Drag on the image to draw ${tool === 'circle' ? 'a circle from its centre' : 'a rectangle'}.`}{' '}
        The coordinate fields below follow, and are the way by keyboard.
      </p>
      {tool === 'poly' && (
        <div className="row">
          <button type="button" className="secondary" disabled={corners.length < 3} onClick={closePolygon}>
            Close the polygon
          </button>
          <button type="button" className="secondary" disabled={corners.length === 0} onClick={() => setCorners([])}>
            Cancel the polygon
          </button>
        </div>
      )}
      <Picture image={image}>
        <svg
          className={`hotspot-canvas tool-${tool}`}
          viewBox={`0 0 ${image.width} ${image.height}`}
          preserveAspectRatio="none"
          aria-hidden="true"
          onPointerDown={press}
          onPointerMove={drag}
          onPointerUp={release}
          onPointerCancel={() => setGesture(null)}
        >
          {areas.map((draft, i) => {
            const area = drawnArea(draft);
            if (!area) return null;
            const coords = (gesture?.kind === 'move' && gesture.index === i && moved(gesture)) || area.coords;
            const box = boxOf({ shape: area.shape, coords });
            const classes = ['drawn-area', draft.correct ? 'correct' : '', selected === i ? 'selected' : ''];
            return (
              <g key={i} data-area={i}>
                <Shape shape={area.shape} coords={coords} className={classes.join(' ').trim()} />
                <text
                  x={box.left + box.width / 2}
                  y={box.top + box.height / 2}
                  fontSize={side / 25}
                  className="drawn-number"
                >
                  {i + 1}
                </text>
              </g>
            );
          })}
          {drawing && gesture?.kind === 'draw' && (
            <Shape shape={gesture.shape} coords={drawing} className="drawn-area drawing" />
          )}
          {corners.length > 0 && (
            <>
              <polyline
                points={corners.map((p) => `${p.x},${p.y}`).join(' ')}
                className="drawn-area drawing"
                vectorEffect="non-scaling-stroke"
              />
              {corners.map((p, i) => (
                <circle key={i} cx={p.x} cy={p.y} r={i === 0 ? side / 50 : side / 150} className="drawn-corner" />
              ))}
            </>
          )}
        </svg>
      </Picture>
      {chosenArea && selected !== null && (
        <div className="row" role="group" aria-label={`Selected: area ${selected + 1}`}>
          <span>
            Selected: {areaName(chosenArea, selected + 1)} ({SHAPE_WORDS[chosenArea.shape]})
          </span>
          <button
            type="button"
            className="secondary"
            aria-pressed={chosenArea.correct}
            onClick={() => change(selected, { correct: !chosenArea.correct })}
          >
            Correct
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() => {
              onAreas(areas.filter((_, i) => i !== selected));
              setChosen(null);
              setSaid(`${areaName(chosenArea, selected + 1)} deleted.`);
            }}
          >
            Delete area {selected + 1}
          </button>
        </div>
      )}
      <p aria-live="polite" className="hint">
        {said}
      </p>
    </div>
  );
}
