import assert from 'node:assert/strict';
import { QuestionInput } from '../../functions/src/questionTypes';

// The table every type's schema test is: a body, and the path and message its refusal names.

export type RefusalCase = [title: string, body: Record<string, unknown>, path: string, message: RegExp];

/** Each case is refused by the union with an issue at `path` whose message matches. */
export function assertRefusals(valid: Record<string, unknown>, cases: RefusalCase[]): void {
  it('takes the valid question', () => {
    assert.ok(QuestionInput.safeParse(valid).success, JSON.stringify(QuestionInput.safeParse(valid).error?.issues));
  });
  for (const [title, over, path, message] of cases) {
    it(`refuses ${title}`, () => {
      const parsed = QuestionInput.safeParse({ ...valid, ...over });
      assert.equal(parsed.success, false, title);
      const issues = parsed.error!.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
      assert.ok(
        issues.some((i) => i.path === path && message.test(i.message)),
        `${title}: ${JSON.stringify(issues)}`,
      );
    });
  }
}
