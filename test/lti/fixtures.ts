import { validTest, writeQuestion } from '../exams/fixtures';
import { api, freshIp } from '../support/http';

/** A published test of the organization, made through the API served at `base`. */
export async function publishedTestOn(
  base: string,
  token: string,
  clientId: string,
): Promise<{ id: string; test_name: string }> {
  const questions = await Promise.all([writeQuestion(clientId), writeQuestion(clientId)]);
  const created = await api('POST', '/api/tests', {
    token,
    ip: freshIp(),
    baseUrl: base,
    body: validTest(
      questions.map((q) => q.id),
      { test_name: `LTI test ${Math.random().toString(36).slice(2, 6)}` },
    ),
  });
  if (created.status !== 201) throw new Error(`creating a test: ${created.text}`);
  const published = await api('POST', `/api/tests/${created.body.id}/publish`, { token, ip: freshIp(), baseUrl: base });
  if (published.status !== 200) throw new Error(`publishing: ${published.text}`);
  return published.body;
}
