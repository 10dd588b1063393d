import assert from 'node:assert/strict';
import { get } from '../support/http';

const ENDPOINTS = [
  'get /api/openapi.json',
  'get /api/health',
  'get /api/me',
  'post /api/users/me/join',
  'get /api/clients',
  'post /api/clients',
  'get /api/clients/{clientId}',
  'patch /api/clients/{clientId}',
  'get /api/clients/{clientId}/networks',
  'get /api/clients/{clientId}/webhooks',
  'post /api/clients/{clientId}/webhooks',
  'delete /api/clients/{clientId}/webhooks/{webhookId}',
  'post /api/clients/{clientId}/webhooks/{webhookId}/rotate-secret',
  'get /api/clients/{clientId}/webhooks/{webhookId}/deliveries',
  'post /api/clients/{clientId}/webhooks/{webhookId}/deliveries/{deliveryId}/resend',
  'put /api/clients/{clientId}/networks',
  'get /api/clients/{clientId}/domains',
  'post /api/clients/{clientId}/domains',
  'delete /api/clients/{clientId}/domains/{domain}',
  'get /api/users',
  'post /api/users',
  'post /api/users/import',
  'post /api/users/invitations',
  'post /api/users/{uid}/invitation',
  'delete /api/users/{uid}/invitation',
  'get /api/users/{uid}',
  'patch /api/users/{uid}',
  'delete /api/users/{uid}',
  'post /api/invitations/preview',
  'post /api/invitations/redeem',
  'get /api/audit-logs',
  'get /api/folders',
  'post /api/folders',
  'patch /api/folders/{folderId}',
  'delete /api/folders/{folderId}',
  'get /api/classes',
  'post /api/classes',
  'get /api/classes/{classId}',
  'patch /api/classes/{classId}',
  'delete /api/classes/{classId}',
  'get /api/classes/{classId}/members',
  'post /api/classes/{classId}/invitations',
  'put /api/classes/{classId}/members/{uid}',
  'delete /api/classes/{classId}/members/{uid}',
  'get /api/questions',
  'get /api/questions/export',
  'post /api/questions',
  'post /api/questions/import',
  'get /api/questions/{questionId}',
  'put /api/questions/{questionId}',
  'patch /api/questions/{questionId}',
  'delete /api/questions/{questionId}',
  'get /api/tests',
  'post /api/tests',
  'get /api/tests/{testId}',
  'get /api/tests/{testId}/export',
  'put /api/tests/{testId}',
  'delete /api/tests/{testId}',
  'post /api/tests/{testId}/publish',
  'post /api/tests/{testId}/archive',
  'post /api/tests/{testId}/restore',
  'post /api/tests/{testId}/new-version',
  'put /api/tests/{testId}/new-version',
  'delete /api/tests/{testId}/new-version',
  'post /api/tests/{testId}/new-version/publish',
  'get /api/tests/{testId}/versions/{version}/bank-changes',
  'post /api/tests/{testId}/share-codes',
  'get /api/tests/{testId}/share-codes',
  'delete /api/tests/{testId}/share-codes/{code}',
  'patch /api/tests/{testId}',
  'post /api/tests/{testId}/extend',
  'put /api/tests/{testId}/overrides/{studentId}',
  'get /api/tests/{testId}/overrides',
  'delete /api/tests/{testId}/overrides/{studentId}',
  'put /api/tests/{testId}/class-overrides/{classId}',
  'get /api/tests/{testId}/class-overrides',
  'delete /api/tests/{testId}/class-overrides/{classId}',
  'get /api/tests/{testId}/not-started',
  'get /api/users/{uid}/accommodations',
  'put /api/users/{uid}/accommodations',
  'post /api/attempts',
  'get /api/attempts',
  'get /api/attempts/{attemptId}',
  'get /api/attempts/{attemptId}/answers/{questionId}/attachments/{attachmentId}',
  'get /api/attempts/{attemptId}/events',
  'post /api/attempts/{attemptId}/answers',
  'post /api/attempts/{attemptId}/answers/{questionId}/attachments',
  'delete /api/attempts/{attemptId}/answers/{questionId}/attachments/{attachmentId}',
  'post /api/attempts/{attemptId}/events',
  'post /api/attempts/{attemptId}/submit',
  'post /api/attempts/{attemptId}/extend',
  'get /api/analytics/tests/{testId}',
  'post /api/analytics/tests/{testId}/recompute',
  'get /api/analytics/tests/{testId}/results.csv',
  'get /api/analytics/students/{studentId}',
  'get /api/tests/{testId}/grading',
  'post /api/attempts/{attemptId}/grades',
  'post /api/tests/{testId}/versions/{version}/regrade',
  'get /api/media/{mediaId}',
  'post /api/classes/{classId}/roster',
  'post /api/clients/{clientId}/lti/platforms',
  'get /api/clients/{clientId}/lti/platforms',
  'patch /api/clients/{clientId}/lti/platforms/{platformId}',
  'delete /api/clients/{clientId}/lti/platforms/{platformId}',
  'get /api/lti/login',
  'post /api/lti/login',
  'post /api/lti/launch',
  'get /api/lti/jwks',
  'post /api/lti/jwks/rotate',
  'get /api/lti/deep-linking/{sessionId}/tests',
  'post /api/lti/deep-linking/{sessionId}',
];

describe('GET /api/openapi.json', () => {
  let doc: any;
  before(async () => {
    const res = await get('/api/openapi.json');
    assert.equal(res.status, 200, res.text);
    doc = res.body;
  });

  it('is an OpenAPI 3.1 document, public', () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.ok(doc.components.securitySchemes.bearerAuth);
  });

  it('lists every endpoint built, and nothing else', () => {
    const listed = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops as object).map((m) => `${m} ${path}`),
    );
    assert.deepEqual(listed.sort(), [...ENDPOINTS].sort());
  });

  it('documents the error body on every endpoint, with 429 everywhere and 401/403/503 where a token is needed', () => {
    for (const [path, ops] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(ops)) {
        const where = `${method} ${path}`;
        assert.ok(op.responses['429'], `${where} documents 429`);
        assert.ok(op.responses['500'], `${where} documents 500`);
        const needsToken = (op.security ?? []).length > 0;
        // The LTI tool's own endpoints take no bearer token but read Firestore (and the launch checks an id_token).
        if (path.startsWith('/api/lti/') && !needsToken) {
          assert.ok(op.responses['503'], `${where} documents 503`);
        } else {
          assert.equal(Boolean(op.responses['401']), needsToken, `${where} 401 iff it needs a token`);
          assert.equal(
            Boolean(op.responses['503']),
            needsToken,
            `${where} 503 (Auth or Firestore down) iff it needs a token`,
          );
        }
        for (const [status, response] of Object.entries<any>(op.responses)) {
          if (Number(status) >= 400)
            assert.equal(response.content['application/json'].schema.$ref, '#/components/schemas/Error');
        }
      }
    }
  });

  it('describes the CSV import as a multipart upload with one file part named "file"', () => {
    const upload = doc.paths['/api/questions/import'].post.requestBody.content['multipart/form-data'].schema;
    assert.deepEqual(Object.keys(upload.properties), ['file']);
    assert.equal(upload.properties.file.format, 'binary');
    assert.ok(doc.paths['/api/questions/import'].post.responses['413'], 'documents 413 for a file over 5 MB');
  });

  it('documents every analytics formula in the analytics reply', () => {
    const question = doc.components.schemas.QuestionAnalytics.properties;
    const test = doc.components.schemas.TestAnalytics.properties;
    assert.match(question.facility_index.description, /mean_mark \/ marks/);
    assert.match(question.discrimination_index.description, /100 · Cov\(x, X\) \/ √\(V\(x\) · V\(X\)\)/);
    assert.match(question.discrimination_index.description, /\(n − 1\)/);
    assert.match(test.cronbach_alpha.description, /k\/\(k − 1\) · \(1 − Σ V\(x_i\) \/ V\(T\)\)/);
    assert.match(test.standard_deviation.description, /\(n − 1\)/);
    assert.match(test.score_distribution.description, /Ten bands/);
    for (const field of ['facility_index', 'discrimination_index', 'mean_mark'])
      assert.match(question[field].description, /[Nn]ull when/, field);
  });

  it('describes the results export as text/csv', () => {
    assert.ok(doc.paths['/api/analytics/tests/{testId}/results.csv'].get.responses['200'].content['text/csv']);
  });

  // Every status a sitting operation can answer with an error: 400 (its params or body), 401/403/503 (a token, the policy, an outage),
  // 404 (the test, attempt or user), 409 only where a bound or a state refuses (overrides and accommodations full, an attempt
  // already submitted, a start outside its window or cooldown), 413 where a body is read, and 429 and 500 everywhere.
  const SITTING_ERRORS: Record<string, string[]> = {
    'patch /api/tests/{testId}': ['400', '401', '403', '404', '413', '429', '500', '503'],
    'put /api/tests/{testId}/overrides/{studentId}': ['400', '401', '403', '404', '409', '413', '429', '500', '503'],
    'get /api/tests/{testId}/overrides': ['400', '401', '403', '404', '429', '500', '503'],
    'delete /api/tests/{testId}/overrides/{studentId}': ['400', '401', '403', '404', '429', '500', '503'],
    'put /api/tests/{testId}/class-overrides/{classId}': [
      '400',
      '401',
      '403',
      '404',
      '409',
      '413',
      '429',
      '500',
      '503',
    ],
    'get /api/tests/{testId}/class-overrides': ['400', '401', '403', '404', '429', '500', '503'],
    'delete /api/tests/{testId}/class-overrides/{classId}': ['400', '401', '403', '404', '429', '500', '503'],
    'get /api/tests/{testId}/not-started': ['400', '401', '403', '404', '429', '500', '503'],
    'get /api/users/{uid}/accommodations': ['400', '401', '403', '404', '429', '500', '503'],
    'put /api/users/{uid}/accommodations': ['400', '401', '403', '404', '409', '413', '429', '500', '503'],
    'post /api/attempts/{attemptId}/extend': ['400', '401', '403', '404', '409', '413', '429', '500', '503'],
    'post /api/tests/{testId}/extend': ['400', '401', '403', '404', '413', '429', '500', '503'],
    'post /api/attempts': ['400', '401', '403', '404', '409', '413', '429', '500', '503'],
  };
  for (const [operation, statuses] of Object.entries(SITTING_ERRORS)) {
    it(`lists exactly the error statuses of ${operation}: ${statuses.join(', ')}`, () => {
      const [method, path] = operation.split(' ');
      const responses = doc.paths[path][method].responses;
      assert.deepEqual(
        Object.keys(responses)
          .filter((status) => Number(status) >= 400)
          .sort(),
        statuses,
      );
    });
  }

  it("answers a test with access_code_required, the code itself only to its admins (Test), never the code's hash", () => {
    for (const name of ['Test', 'StudentTest']) {
      const properties = doc.components.schemas[name].properties;
      assert.equal(properties.access_code_required.type, 'boolean', name);
      assert.ok(doc.components.schemas[name].required.includes('access_code_required'), name);
      assert.equal(properties.access_code_hash, undefined, name);
    }
    assert.equal(doc.components.schemas.StudentTest.properties.access_code, undefined, 'never in a taker’s test');
    assert.deepEqual(doc.components.schemas.Test.properties.access_code.type, ['string', 'null']);
    assert.ok(doc.components.schemas.Test.required.includes('access_code'));
  });

  it('takes access_code on create, replace and PATCH as a field of 4 to 64 characters, or null to clear it', () => {
    for (const name of ['CreateTest', 'ReplaceTest', 'PatchTest']) {
      const field = doc.components.schemas[name].properties.access_code;
      assert.equal(field.writeOnly, undefined, name);
      assert.deepEqual(field.type, ['string', 'null'], name);
      assert.equal(field.minLength, 4, name);
      assert.equal(field.maxLength, 64, name);
      assert.equal(doc.components.schemas[name].properties.access_code_hash, undefined, name);
    }
    const start = doc.components.schemas.StartAttempt.properties.access_code;
    assert.equal(start.type, 'string');
    assert.equal(start.maxLength, 64);
  });

  it('shows both shapes of the answers body, one answer and a batch of 1 to 100, and the three replies', () => {
    const op = doc.paths['/api/attempts/{attemptId}/answers'].post;
    const refs = (schema: any) => (schema.anyOf ?? schema.oneOf).map((s: any) => s.$ref.split('/').pop()).sort();
    assert.deepEqual(refs(op.requestBody.content['application/json'].schema), ['SaveAnswer', 'SaveAnswerBatch']);
    assert.deepEqual(refs(op.responses['200'].content['application/json'].schema), [
      'SavedAnswer',
      'SavedAnswerBatch',
      'SequencedAnswer',
    ]);
    const { SaveAnswer, SaveAnswerBatch } = doc.components.schemas;
    assert.deepEqual(SaveAnswer.required.sort(), ['question_id', 'student_answer']);
    assert.equal(SaveAnswer.properties.client_seq.type, 'integer');
    assert.equal(SaveAnswer.properties.client_seq.minimum, 0);
    assert.equal(SaveAnswerBatch.properties.answers.items.$ref, '#/components/schemas/SaveAnswer');
    assert.equal(SaveAnswerBatch.properties.answers.minItems, 1);
    assert.equal(SaveAnswerBatch.properties.answers.maxItems, 100);
    assert.deepEqual(doc.components.schemas.SavedAnswer.required.sort(), ['question_id', 'saved_at', 'student_answer']);
  });

  it('takes and answers on_site_only (0 or 1) with the delivery settings', () => {
    for (const name of ['CreateTest', 'ReplaceTest', 'PatchTest', 'Test', 'StudentTest']) {
      const field = doc.components.schemas[name].properties.on_site_only;
      assert.ok(field, name);
      assert.match(field.description, /only on site/, name);
    }
    assert.ok(doc.components.schemas.Test.required.includes('on_site_only'));
  });

  it('tags the grading queue, a grade and a regrade "Grading", for administrators only, with the errors each can answer', () => {
    const operations: Record<string, string[]> = {
      'get /api/tests/{testId}/grading': ['400', '401', '403', '404', '429', '500', '503'],
      'post /api/attempts/{attemptId}/grades': ['400', '401', '403', '404', '409', '413', '429', '500', '503'],
      'post /api/tests/{testId}/versions/{version}/regrade': [
        '400',
        '401',
        '403',
        '404',
        '409',
        '413',
        '429',
        '500',
        '503',
      ],
    };
    for (const [operation, statuses] of Object.entries(operations)) {
      const [method, path] = operation.split(' ');
      const op = doc.paths[path][method];
      assert.deepEqual(op.tags, ['Grading'], operation);
      assert.deepEqual(op.security, [{ bearerAuth: [] }], operation);
      assert.deepEqual(
        Object.keys(op.responses)
          .filter((status) => Number(status) >= 400)
          .sort(),
        statuses,
        operation,
      );
    }
  });

  it('takes pools (at most 20, each a folder and a draw of 1 to 500) on create and replace, and answers them on a test', () => {
    for (const name of ['CreateTest', 'ReplaceTest']) {
      const pools = doc.components.schemas[name].properties.pools;
      assert.equal(pools.maxItems, 20, name);
      assert.equal(pools.items.$ref, '#/components/schemas/TestPoolInput', name);
    }
    const input = doc.components.schemas.TestPoolInput;
    assert.deepEqual(input.required.sort(), ['draw', 'folder_id']);
    assert.deepEqual([input.properties.draw.minimum, input.properties.draw.maximum], [1, 500]);
    assert.equal(input.additionalProperties, false);
    assert.equal(doc.components.schemas.Test.properties.pools.items.$ref, '#/components/schemas/TestPool');
    assert.ok(doc.components.schemas.Test.required.includes('pools'));
  });

  it('takes an essay with max_words (1 to 10,000) among the question types, and an answer of up to 10,000 characters', () => {
    const refs = (schema: any) => (schema.anyOf ?? schema.oneOf).map((s: any) => s.$ref.split('/').pop());
    assert.ok(refs(doc.components.schemas.QuestionInput).includes('EssayQuestionInput'));
    const essay = doc.components.schemas.EssayQuestionInput.properties;
    assert.deepEqual([essay.max_words.minimum, essay.max_words.maximum], [1, 10_000]);
    assert.ok(doc.components.schemas.Question.properties.question_type.enum.includes('essay'));
    assert.equal(doc.components.schemas.SaveAnswer.properties.student_answer.maxLength, 10_000);
  });

  it('describes request bodies from the same schemas that validate them', () => {
    const create = doc.paths['/api/clients'].post.requestBody.content['application/json'].schema;
    assert.equal(create.$ref, '#/components/schemas/CreateClient');
    assert.deepEqual(doc.components.schemas.CreateClient.required.sort(), ['address', 'logo_url', 'name']);
    assert.equal(doc.components.schemas.CreateClient.additionalProperties, false);
  });
});
