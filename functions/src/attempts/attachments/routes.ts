import { z } from 'zod';
import { defineRoute, type RouteDefinition } from '../../http';
import { Attachment, AttemptTokenQuery } from '../schemas';
import { callerOf, TAKERS, TOKEN_NOTE } from '../routes';
import { MAX_ATTACHMENTS_PER_ATTEMPT } from './rules';
import { AttachmentParams, AttachmentsParams } from './schemas';

// The service (busboy, Cloud Storage) loads with the first file, not with the taker's sitting.
const service = () => import('./service');

export const attachmentRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'post',
    path: '/attempts/{attemptId}/answers/{questionId}/attachments',
    summary: 'Attach a file to an essay’s answer',
    description:
      'multipart/form-data with exactly one file part named "file": a PDF, PNG or JPEG (decided by its content: a file named .pdf that is not one → 400) of at most 10 MB (more → 413). ' +
      'Only to an essay that takes files (its attachments, shown with the question; another question → 400, one not in the attempt → 404), ' +
      'at most its attachments per answer and ' +
      `${MAX_ATTACHMENTS_PER_ATTEMPT} per attempt (past them → 409, however many uploads race: the count is decided in one transaction on the attempt), ` +
      'while the attempt is in progress and before expires_at + 30 s (after → 409; a stopped attempt → 409 too). ' +
      'Sent by the taker (its ID token or the attempt token, with the checks a save makes); an administrator by its own ID token → 403. ' +
      'The bytes are stored first, then the record; on failure nothing is left (Cloud Storage unavailable → 503 with Retry-After). ' +
      'An answer with files and no text counts as answered: it is graded by a person.' +
      TOKEN_NOTE,
    tag: 'Attempts',
    access: TAKERS,
    attemptToken: true,
    params: AttachmentsParams,
    query: AttemptTokenQuery,
    upload: { field: 'file', description: 'The file: PDF, PNG or JPEG, at most 10 MB' },
    success: { status: 201, description: 'The file as attached', schema: Attachment },
    errors: ['NOT_FOUND', 'CONFLICT', 'PAYLOAD_TOO_LARGE'],
    handler: async ({ principal, params, query, upload, call }) => ({
      status: 201,
      body: await (
        await service()
      ).attachFile(callerOf(principal, query.attempt_token), params.attemptId, params.questionId, upload!, call),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/attempts/{attemptId}/answers/{questionId}/attachments/{attachmentId}',
    summary: 'Remove a file from an essay’s answer',
    description:
      'While the attempt is in progress (after → 409), by its taker as an upload is sent. An unknown file → 404. The record goes first, then the bytes.' +
      TOKEN_NOTE,
    tag: 'Attempts',
    access: TAKERS,
    attemptToken: true,
    params: AttachmentParams,
    query: AttemptTokenQuery,
    success: { status: 204, description: 'Removed' },
    errors: ['NOT_FOUND', 'CONFLICT'],
    handler: async ({ principal, params, query, call }) => {
      await (
        await service()
      ).removeAttachment(
        callerOf(principal, query.attempt_token),
        params.attemptId,
        params.questionId,
        params.attachmentId,
        call,
      );
      return { status: 204 };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/attempts/{attemptId}/answers/{questionId}/attachments/{attachmentId}',
    summary: 'An attached file’s bytes',
    description:
      'To the attempt’s taker (its ID token or the attempt token) and to the administrators of its organization (a Super Admin any), at any time; ' +
      'anyone else, another organization’s administrator included, → 404, as for a file that does not exist. ' +
      'Served as the type its content was found to be, as a download (Content-Disposition: attachment), with X-Content-Type-Options: nosniff ' +
      'and Cache-Control: private, no-store. Cloud Storage unavailable → 503.' +
      TOKEN_NOTE,
    tag: 'Attempts',
    access: TAKERS,
    attemptToken: true,
    params: AttachmentParams,
    query: AttemptTokenQuery,
    success: {
      status: 200,
      description: 'The file’s bytes',
      schema: z.string().meta({ format: 'binary' }),
      mediaType: ['application/pdf', 'image/png', 'image/jpeg'],
    },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, query, call }) => {
      const { file, bytes } = await (
        await service()
      ).readAttachment(
        callerOf(principal, query.attempt_token),
        params.attemptId,
        params.questionId,
        params.attachmentId,
        call,
      );
      return {
        status: 200,
        stream: {
          contentType: file.content_type,
          fileName: file.name,
          write: async (res) => {
            res.setHeader('X-Content-Type-Options', 'nosniff');
            res.setHeader('Cache-Control', 'private, no-store');
            res.setHeader('Content-Length', String(bytes.byteLength));
            res.write(bytes);
          },
        },
      };
    },
  }),
];
