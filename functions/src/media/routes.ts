import { z } from 'zod';
import { defineRoute, type RouteDefinition } from '../http';
import { MediaParams, MediaQuery } from './schemas';
import { serveMedia } from './service';

export const mediaRoutes: RouteDefinition[] = [
  defineRoute({
    method: 'get',
    path: '/media/{mediaId}',
    summary: 'A question’s image, audio or video',
    description:
      'The bytes of a media file a question’s HTML refers to (/api/media/<id>), with the type its content was found to be when stored ' +
      '(image/png, image/jpeg, image/gif, image/webp, audio/mpeg, audio/ogg, audio/wav, video/mp4 or video/webm), X-Content-Type-Options: nosniff, Content-Disposition: inline and Cache-Control: private, max-age=300. ' +
      'Super Admin any organization’s, Client Admin its own (another organization’s → 404). ' +
      'Students and Guests send attempt_id (without it → 403): the attempt must be theirs (as GET /attempts/{id} decides, attempt_token accepted the same way) and one of its questions must show the media: ' +
      'while the attempt is being taken, in the question’s text or options; once submitted and its review is open to the caller (allow_review and the release date, as for `review`), anywhere in the question, feedback included. ' +
      'Otherwise → 404, as for media that does not exist. Cloud Storage unavailable → 503 with Retry-After.',
    tag: 'Media',
    access: ['super_admin', 'client_admin', 'student', 'guest'],
    attemptToken: true,
    params: MediaParams,
    query: MediaQuery,
    success: {
      status: 200,
      description: 'The file’s bytes',
      schema: z.string().meta({ format: 'binary' }),
      mediaType: 'application/octet-stream',
    },
    errors: ['NOT_FOUND'],
    handler: async ({ principal, params, query, call }) => {
      const { doc, bytes } = await serveMedia(principal, params.mediaId, query, call);
      return {
        status: 200,
        stream: {
          contentType: doc.content_type,
          write: async (res) => {
            res.setHeader('X-Content-Type-Options', 'nosniff');
            res.setHeader('Content-Disposition', 'inline');
            // Private: a shared cache must never hand one taker's picture to another; five minutes spares a page's reloads.
            res.setHeader('Cache-Control', 'private, max-age=300');
            res.setHeader('Content-Length', String(bytes.byteLength));
            res.write(bytes);
          },
        },
      };
    },
  }),
];
