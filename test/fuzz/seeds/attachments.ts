import { pdf } from '../../media/samples';
import { multipartBody, postBytes } from '../../support/multipart';
import { publishTest, startOk } from '../../attempts/fixtures';
import { writeQuestion } from '../../exams/fixtures';
import type { FuzzSeedGroup } from './types';

// Seeds for the files a taker attaches to an essay: the tenant's student in an attempt of a test
// with one essay taking five files, and one file attached, made through the API as a taker would.
// The upload seed attaches a PDF on each run (past five, 409: state); the delete seed removes the
// prepared file on its first run (then 404: state); the read seed asks for it.

interface Prepared {
  attemptId: string;
  essayId: string;
  attachmentId: string;
}

const PDF_TEXT = pdf().toString('latin1');

export const seeds: FuzzSeedGroup = {
  async prepare(w): Promise<Prepared> {
    const clientId = w.tenant.clientId;
    const essay = await writeQuestion(clientId, {
      question_type: 'essay' as any,
      question_text: 'Fuzz: attach your working',
      options: [],
      correct_answer: '',
      max_words: null,
      attachments: 5,
    } as any);
    const { test } = await publishTest(w.tenant.admin.token, clientId, {
      questions: [essay],
      extra: { max_attempts: 10 },
    });
    const started = await startOk(w.tenant.student.token, { test_id: test.id });
    const file = multipartBody([{ field: 'file', filename: 'prepared.pdf', contentType: 'application/pdf', content: pdf() }]);
    const attached = await postBytes(
      `/api/attempts/${started.attempt_id}/answers/${essay.id}/attachments`,
      file.body,
      file.contentType,
      { token: w.tenant.student.token },
    );
    if (attached.status !== 201) throw new Error(`attaching the prepared file: ${attached.status} ${attached.text}`);
    return { attemptId: started.attempt_id, essayId: essay.id, attachmentId: attached.body.id };
  },
  seeds: [
    {
      operation: 'post /api/attempts/{attemptId}/answers/{questionId}/attachments',
      request: (w, p: Prepared) => ({
        token: w.tenant.student.token,
        params: { attemptId: p.attemptId, questionId: p.essayId },
        multipart: { field: 'file', filename: 'work.pdf', contentType: 'application/pdf', content: PDF_TEXT },
      }),
    },
    {
      operation: 'get /api/attempts/{attemptId}/answers/{questionId}/attachments/{attachmentId}',
      request: (w, p: Prepared) => ({
        token: w.tenant.student.token,
        params: { attemptId: p.attemptId, questionId: p.essayId, attachmentId: p.attachmentId },
      }),
    },
    {
      operation: 'delete /api/attempts/{attemptId}/answers/{questionId}/attachments/{attachmentId}',
      request: (w, p: Prepared) => ({
        token: w.tenant.student.token,
        params: { attemptId: p.attemptId, questionId: p.essayId, attachmentId: p.attachmentId },
      }),
    },
  ],
};
