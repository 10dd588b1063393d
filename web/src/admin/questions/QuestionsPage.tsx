import { useState } from 'react';
import { type Schemas, unwrap } from '../../api';
import { useSession } from '../../session';
import { ErrorMessage, Field, Loading, marksText, ScrollTable, useAction, useLoad } from '../../ui';
import { NeedsOrg } from '../org';
import { DIFFICULTIES, QuestionForm, type Difficulty } from './QuestionForm';
import { findQuestionType, PASSAGE_TYPES, QUESTION_TYPES, type QuestionType, typeLabel } from '../../questionTypes';
import { Pager } from '../shared';
import { QuestionText } from '../../QuestionText';
import { plainTextOf } from '../../questionHtml';
import { ExportControl } from './ExportControl';
import { Folders } from './Folders';

const PAGE_SIZE = 20;

/** Question bank */
export function QuestionsPage() {
  return (
    <>
      <h1>Question bank</h1>
      <NeedsOrg>{(clientId) => <Bank key={clientId} clientId={clientId} />}</NeedsOrg>
    </>
  );
}

/** How buttons and confirmations name a question: its title, else its text as plain text. */
const nameOf = (q: Schemas['Question']) => q.title || plainTextOf(q.question_text, q.text_format);

/** The answer key as the bank's table shows it; an essay has none (a person grades it). */
const answerOf = (q: Schemas['Question']): string => {
  if (q.correct_answer === null)
    return q.max_words != null ? `Graded by a person (at most ${q.max_words} words)` : 'Graded by a person';
  return `${q.correct_answer}${q.tolerance != null ? ` ± ${q.tolerance}` : ''}`;
};

/** A question as the bank's table shows it: its title, its text (HTML rendered), options, and its feedback. */
function QuestionCell({ question: q }: { question: Schemas['Question'] }) {
  const optionFeedback = q.options
    .map((option, i) => ({ option, feedback: q.option_feedback?.[i] }))
    .filter((o): o is { option: string; feedback: string } => Boolean(o.feedback));
  return (
    <>
      {q.title ? (
        <>
          <strong className="qtitle">{q.title}</strong>
          <br />
        </>
      ) : null}
      <QuestionText text={q.question_text} format={q.text_format} />
      {q.options.length > 0 && (findQuestionType(q.question_type)?.fixedOptions ?? null) === null ? (
        <>
          <br />
          <small>{q.options.join(' · ')}</small>
        </>
      ) : null}
      {q.feedback || optionFeedback.length > 0 ? (
        <details className="feedback">
          <summary>Feedback</summary>
          {optionFeedback.length > 0 && (
            <ul>
              {optionFeedback.map((o) => (
                <li key={o.option}>
                  {o.option}: <QuestionText text={o.feedback} format={q.text_format} />
                </li>
              ))}
            </ul>
          )}
          {q.feedback ? (
            <p>
              General: <QuestionText text={q.feedback} format={q.text_format} />
            </p>
          ) : null}
        </details>
      ) : null}
    </>
  );
}

function Bank({ clientId }: { clientId: string }) {
  const { api } = useSession();
  const [folderId, setFolderId] = useState('');
  const [type, setType] = useState<QuestionType | ''>('');
  const [difficulty, setDifficulty] = useState<Difficulty | ''>('');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Schemas['Question'] | 'new' | null>(null);
  const [notice, setNotice] = useState('');
  const action = useAction();

  const folders = useLoad(
    () => unwrap(api.GET('/api/folders', { params: { query: { client_id: clientId, limit: 100 } } })),
    [api, clientId],
  );
  const questions = useLoad(
    () =>
      unwrap(
        api.GET('/api/questions', {
          params: {
            query: {
              client_id: clientId,
              page,
              limit: PAGE_SIZE,
              ...(folderId ? { folder_id: folderId } : {}),
              ...(type ? { question_type: type } : {}),
              ...(difficulty ? { difficulty } : {}),
            },
          },
        }),
      ),
    [api, clientId, page, folderId, type, difficulty],
  );
  // The passages a question may be shown beside, read when the form opens (the first 100).
  const passages = useLoad(
    () =>
      editing
        ? unwrap(
            api.GET('/api/questions', {
              params: { query: { client_id: clientId, question_type: PASSAGE_TYPES[0], limit: 100 } },
            }),
          )
        : Promise.resolve(undefined),
    [api, clientId, editing !== null],
  );
  const folderList = folders.data?.data ?? [];
  const folderName = (id: string | null) => (id ? (folderList.find((f) => f.id === id)?.name ?? id) : '—');

  const save = (input: Schemas['QuestionInput']) =>
    action.run(async () => {
      if (editing && editing !== 'new') {
        await unwrap(
          api.PUT('/api/questions/{questionId}', { params: { path: { questionId: editing.id } }, body: input }),
        );
        setNotice('Question saved.');
      } else {
        await unwrap(api.POST('/api/questions', { body: input }));
        setNotice('Question created.');
      }
      setEditing(null);
      questions.reload();
    });
  const remove = (q: Schemas['Question']) =>
    action.run(async () => {
      if (!confirm(`Delete the question "${nameOf(q)}"?`)) return;
      await unwrap(api.DELETE('/api/questions/{questionId}', { params: { path: { questionId: q.id } } }));
      setNotice('Question deleted.');
      questions.reload();
    });
  const filter = (fn: () => void) => {
    fn();
    setPage(1);
  };
  const pagination = questions.data?.pagination;

  return (
    <>
      <ErrorMessage error={folders.error} />
      {editing ? (
        <QuestionForm
          key={editing === 'new' ? 'new' : editing.id}
          question={editing === 'new' ? undefined : editing}
          folders={folderList}
          passages={passages.data?.data ?? []}
          clientId={clientId}
          busy={action.busy}
          error={action.error}
          onSave={save}
          onCancel={() => {
            setEditing(null);
            action.clear();
          }}
        />
      ) : (
        <p>
          <button
            type="button"
            onClick={() => {
              setNotice('');
              action.clear();
              setEditing('new');
            }}
          >
            New question
          </button>
        </p>
      )}
      {/* The form shows its own refusal, each problem at its field. */}
      {!editing && <ErrorMessage error={action.error} />}
      {notice && (
        <p role="status" className="note">
          {notice}
        </p>
      )}
      <Folders
        clientId={clientId}
        folders={folderList}
        onChanged={(deletedId) => {
          folders.reload();
          // The bank filtered by a folder now deleted goes back to every folder.
          if (deletedId && deletedId === folderId) filter(() => setFolderId(''));
        }}
        onShow={(id) => filter(() => setFolderId(id))}
      />
      <section aria-labelledby="bank-heading">
        <h2 id="bank-heading">Questions</h2>
        <div className="row">
          <Field label="Folder">
            <select value={folderId} onChange={(e) => filter(() => setFolderId(e.target.value))}>
              <option value="">All folders</option>
              {folderList.map((f) => (
                <option key={f.id} value={f.id}>
                  {f.name}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Question type">
            <select value={type} onChange={(e) => filter(() => setType(e.target.value as QuestionType | ''))}>
              <option value="">All types</option>
              {QUESTION_TYPES.map((t) => (
                <option key={t.type} value={t.type}>
                  {t.label}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Difficulty">
            <select value={difficulty} onChange={(e) => filter(() => setDifficulty(e.target.value as Difficulty | ''))}>
              <option value="">All difficulties</option>
              {DIFFICULTIES.map((x) => (
                <option key={x} value={x}>
                  {x}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <ExportControl
          path="/api/questions/export"
          baseName="questions"
          query={{
            client_id: clientId,
            folder_id: folderId || undefined,
            question_type: type || undefined,
            difficulty: difficulty || undefined,
          }}
        />
        <ErrorMessage error={questions.error} />
        {questions.loading && !questions.data ? <Loading what="Loading the questions" /> : null}
        {questions.data && questions.data.data.length === 0 ? <p>No question matches.</p> : null}
        {questions.data && questions.data.data.length > 0 && (
          <ScrollTable label="Questions of the bank" className="stacked">
            <thead>
              <tr>
                <th scope="col">Question</th>
                <th scope="col">Type</th>
                <th scope="col">Answer</th>
                <th scope="col">Marks</th>
                <th scope="col">Difficulty</th>
                <th scope="col">Folder</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {questions.data.data.map((q) => (
                <tr key={q.id}>
                  <td>
                    <QuestionCell question={q} />
                  </td>
                  <td data-label="Type">{typeLabel(q.question_type)}</td>
                  <td data-label="Answer">{answerOf(q)}</td>
                  <td data-label="Marks">{marksText(q.marks)}</td>
                  <td data-label="Difficulty">{q.difficulty}</td>
                  <td data-label="Folder">{folderName(q.folder_id)}</td>
                  <td>
                    <div className="row">
                      <button
                        type="button"
                        className="secondary"
                        // A type this app has no form for is not edited here, never as another type.
                        disabled={!findQuestionType(q.question_type)}
                        onClick={() => {
                          setNotice('');
                          action.clear();
                          setEditing(q);
                        }}
                        aria-label={`Edit ${nameOf(q)}`}
                      >
                        Edit
                      </button>
                      <button
                        type="button"
                        className="danger"
                        onClick={() => void remove(q)}
                        aria-label={`Delete ${nameOf(q)}`}
                      >
                        Delete
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        )}
        {pagination && pagination.pages > 1 && (
          <Pager pagination={pagination} page={page} onPage={setPage} what="questions" />
        )}
      </section>
    </>
  );
}
