import { defineRoute, type RouteDefinition } from '../http';
import { RegradeBody, RegradeParams, RegradeReply } from './schemas';
import * as service from './service';
import { REGRADE_PAGE } from './store';

const AUTHORS = ['super_admin', 'client_admin'] as const;

export const regradingRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'post',
    path: '/tests/{testId}/versions/{version}/regrade',
    summary: 'Correct one question of a published version and rescore its attempts',
    description:
      'Corrects the key, tolerance or marks of one frozen question of the version (a fixed one or a pool’s), validated as the bank validates a question of its type (an essay → 400: it is graded, not regraded). ' +
      'dry_run: true lists every submitted attempt whose score would change, before and after, and writes nothing. ' +
      'Otherwise the frozen question is corrected and the version’s revision raised (one transaction, audited as version_regraded); its attempts in progress are marked so that they are scored with the correction; ' +
      `and every submitted attempt is rescored in pages of ${REGRADE_PAGE} (one transaction each, never one giant one): each whose result changes is rewritten, its analytics moved by the difference (they stay equal to a recomputation), ` +
      'and audited as attempt_regraded. The reply lists the attempts whose score changed. ' +
      'A regrade overtaken by a later correction of the same version stops with 409 (the later one rescores every attempt). Safe to send again after a failure half way: the question is found corrected (corrected: false) and the rescoring finishes; an attempt already rescored comes out the same and is not written again. ' +
      'Its cost grows with the version’s attempts, so it counts against the strict per-user limit. Super Admin any test, Client Admin its organization’s (another’s → 403); a version or question the test does not have → 404.',
    tag: 'Grading',
    access: AUTHORS,
    sensitive: true,
    params: RegradeParams,
    body: RegradeBody,
    success: { status: 200, description: 'The attempts whose score changed (or would change)', schema: RegradeReply },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, body, call }) => ({
      status: 200,
      body: await service.regrade(principal, params.testId, params.version, body, call),
    }),
  }),
];
