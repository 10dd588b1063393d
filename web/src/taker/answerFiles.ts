import { useCallback, useState } from 'react';
import { type Api, downloadFile, type Schemas, unwrap } from '../api';
import type { AnswerFiles } from '../questionTypes';
import type { Auth } from 'firebase/auth';

type Attachment = Schemas['Attachment'];

/** A file of the attempt, fetched with its credentials (an attempt token when given) as a download. */
export const openAttachment = (auth: Auth, file: Attachment, headers?: Record<string, string>): Promise<void> =>
  downloadFile(auth, file.url, file.name, headers);

/**
 * The files attached to an attempt's answers, and how the page attaches and removes them: each
 * at once, with the attempt's credentials (files need the network; text answers have their queue).
 */
export function useAnswerFiles(
  api: Api,
  auth: Auth,
  attemptId: string,
  initial: readonly Attachment[] | undefined,
  headers?: Record<string, string>,
): { all: readonly Attachment[]; filesOf: (questionId: string) => AnswerFiles } {
  const [all, setAll] = useState<readonly Attachment[]>(initial ?? []);
  const filesOf = useCallback(
    (questionId: string): AnswerFiles => ({
      list: all.filter((f) => f.question_id === questionId),
      attach: async (file) => {
        const form = new FormData();
        form.append('file', file, file.name);
        const added = await unwrap(
          api.POST('/api/attempts/{attemptId}/answers/{questionId}/attachments', {
            params: { path: { attemptId, questionId } },
            headers,
            // Sent as the browser encodes a form (multipart, its boundary in the Content-Type it sets).
            body: form as never,
            bodySerializer: (body: unknown) => body as FormData,
          }),
        );
        setAll((current) => [...current, added]);
      },
      remove: async (attachmentId) => {
        await unwrap(
          api.DELETE('/api/attempts/{attemptId}/answers/{questionId}/attachments/{attachmentId}', {
            params: { path: { attemptId, questionId, attachmentId } },
            headers,
          }),
        );
        setAll((current) => current.filter((f) => f.id !== attachmentId));
      },
      open: (file) => openAttachment(auth, file, headers),
    }),
    [all, api, auth, attemptId, headers],
  );
  return { all, filesOf };
}
