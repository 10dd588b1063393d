import { characterLimit } from '../answers';
import type { KeyedQuestion, Marking, PartOutcome, QuestionTypeModule } from '../module';
import { answeredParts, MAX_PARTS_ANSWER, readKey } from '../parts';
import { contains, readPoint } from './geometry';
import { hotspotExtras, HotspotInput, normalizeHotspot } from './schema';

// Areas of an image. The answer is a JSON array text with one string per pick: an area's number
// (from 1) when the taker chooses areas, a point "x,y" in the image's pixels when the taker places
// points. Choosing: (right areas chosen − wrong ones) ÷ correct areas, at least 0, the exact set
// earning the marks. Points: each correct area holding a point is right (once, whatever the points
// in it); a point in no correct area is wrong; share = right ÷ correct areas, the wrong points'
// share charged by negative marking. An answer that cannot be read earns nothing.

function markAreas(question: KeyedQuestion, picks: string[]): Marking {
  const key = new Set(readKey(question.correct_answer) ?? []);
  const chosen = new Set(picks.map((p) => p.trim()).filter((p) => p.length > 0));
  let right = 0;
  for (const pick of chosen) if (key.has(pick)) right++;
  const wrong = chosen.size - right;
  if (key.size === 0) return { share: 0 };
  if (wrong === 0 && right === key.size) return { share: 1 };
  const share = Math.max(0, right - wrong) / key.size;
  return share > 0 || chosen.size === 0 ? { share } : { share: 0, wrong: 1 };
}

function markPoints(question: KeyedQuestion, picks: string[]): Marking {
  const correct = (question.areas ?? []).filter((a) => a.correct);
  if (correct.length === 0) return { share: 0 };
  const hit = new Set<number>();
  let misses = 0;
  for (const pick of picks) {
    const point = readPoint(pick);
    if (!point) continue;
    const inside = correct.findIndex((area) => contains(area, point));
    if (inside >= 0) hit.add(inside);
    else misses++;
  }
  const share = hit.size / correct.length;
  const wrong = Math.min(1 - share, misses / correct.length);
  return wrong > 0 ? { share, wrong } : { share };
}

/** Each correct area as answered: chosen, or holding a point. */
function outcomes(question: KeyedQuestion, answer: string): PartOutcome[] {
  const picks = readKey(answer) ?? [];
  const points = picks.map(readPoint).filter((p) => p !== undefined);
  const chosen = new Set(picks.map((p) => p.trim()));
  return (question.areas ?? []).flatMap((area, i) => {
    if (!area.correct) return [];
    const hit = question.select === 'points' ? points.some((p) => contains(area, p)) : chosen.has(String(i + 1));
    return [{ answered: picks.length > 0, earned: hit ? 1 : 0 }];
  });
}

function mark(question: KeyedQuestion, answer: string): Marking {
  const picks = readKey(answer);
  if (!picks) return { share: 0 };
  return question.select === 'points' ? markPoints(question, picks) : markAreas(question, picks);
}

export const hotspot: QuestionTypeModule<'hotspot', typeof HotspotInput> = {
  name: 'hotspot',
  input: HotspotInput,
  options: 'none',
  extras: ['image', 'areas', 'select', 'max_points'],
  ownFields: [],
  numericKey: false,
  normalize: normalizeHotspot,
  normalizeExtras: hotspotExtras,
  derivesKey: true,
  // A key sent as correct_answer (a regrade's): the numbers of the correct areas.
  inputWithKey: (input, key) => {
    const numbers = readKey(key);
    const areas = input.areas as Array<{ correct: boolean }> | undefined;
    if (!numbers || !areas) return { ...input, correct_answer: key };
    const chosen = new Set(numbers.map((n) => n.trim()));
    return { ...input, areas: areas.map((a, i) => ({ ...a, correct: chosen.has(String(i + 1)) })) };
  },
  marking: 'key',
  mark,
  answerProblem: (answer, question) => {
    const picks = readKey(answer)?.filter((p) => p.trim().length > 0).length ?? 0;
    const most = question.max_points ?? null;
    return most !== null && picks > most
      ? `This question takes at most ${most} points; the answer places ${picks}`
      : characterLimit(answer, question, MAX_PARTS_ANSWER);
  },
  answerParts: answeredParts,
  partLabels: (question) =>
    (question.areas ?? []).flatMap((area, i) =>
      area.correct ? [{ label: area.label ?? `Area ${i + 1}`, choices: null }] : [],
    ),
  partOutcomes: outcomes,
  shownKey: (question) => question.correct_answer,
  // Areas are shown only to choose among; points are placed on the bare image.
  takerView: (question) => ({
    options: [],
    ...(question.image ? { image: { ...question.image } } : {}),
    select: question.select ?? 'areas',
    ...(question.select === 'points'
      ? { max_points: question.max_points ?? null }
      : {
          areas: (question.areas ?? []).map(({ shape, coords, label }) => ({
            shape,
            coords: [...coords],
            ...(label ? { label } : {}),
          })),
        }),
  }),
  htmlOptions: null,
  keyFields: ['correct_answer', 'marks', 'areas', 'select'],
  regradeRefusal: null,
};
