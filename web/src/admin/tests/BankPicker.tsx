import { useEffect, useId, useState } from 'react';
import { type Schemas, unwrap } from '../../api';
import { useSession } from '../../session';
import { ErrorMessage, Field, Loading, marksText, ScrollTable, useLoad } from '../../ui';
import { Pager } from '../shared';
import { plainTextOf } from '../../questionHtml';
import { typeLabel } from '../../questionTypes';

type Question = Schemas['Question'];
const BANK_PAGE = 50;

/** How a question is named in a list: its title, else its text as plain words (an imported question's HTML stripped). */
export const questionName = (q: Pick<Question, 'question_text' | 'text_format'> & { title?: string }): string =>
  q.title?.trim() || plainTextOf(q.question_text, q.text_format);

/**
 * "Add from the bank": the bank's questions by folder (the API's filter), each named by its title and its
 * type in words, narrowed by a search over the page shown (the questions list has no text search: a search
 * reads nothing more), added to the test by its button.
 */
export function BankPicker({
  clientId,
  chosen,
  onAdd,
  onLoaded,
}: {
  clientId: string;
  chosen: readonly string[];
  onAdd: (id: string) => void;
  onLoaded: (questions: readonly Question[]) => void;
}) {
  const { api } = useSession();
  const [page, setPage] = useState(1);
  const [folderId, setFolderId] = useState('');
  const [search, setSearch] = useState('');
  const headingId = useId();
  const folders = useLoad(
    () => unwrap(api.GET('/api/folders', { params: { query: { client_id: clientId, limit: 100 } } })),
    [api, clientId],
  );
  const bank = useLoad(
    () =>
      unwrap(
        api.GET('/api/questions', {
          params: {
            query: { client_id: clientId, page, limit: BANK_PAGE, ...(folderId ? { folder_id: folderId } : {}) },
          },
        }),
      ),
    [api, clientId, page, folderId],
  );
  useEffect(() => {
    if (bank.data) onLoaded(bank.data.data);
    // onLoaded is the parent's setter wrapper: a new page is what calls for it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [bank.data]);
  const words = search.trim().toLowerCase();
  const rows = (bank.data?.data ?? []).filter(
    (q) => !words || `${questionName(q)} ${plainTextOf(q.question_text, q.text_format)}`.toLowerCase().includes(words),
  );
  return (
    <section aria-labelledby={headingId}>
      <h3 id={headingId}>Add from the bank</h3>
      <div className="row">
        <Field label="Folder">
          <select
            value={folderId}
            onChange={(e) => {
              setFolderId(e.target.value);
              setPage(1);
            }}
          >
            <option value="">All folders</option>
            {(folders.data?.data ?? []).map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label="Search" hint="In the title and text of the questions shown">
          <input type="search" value={search} maxLength={100} onChange={(e) => setSearch(e.target.value)} />
        </Field>
      </div>
      <ErrorMessage error={bank.error ?? folders.error} />
      {bank.loading && !bank.data ? <Loading what="Loading the question bank" /> : null}
      {bank.data && bank.data.data.length === 0 ? (
        <p>{folderId ? 'No question in this folder.' : 'The bank is empty.'}</p>
      ) : null}
      {bank.data && bank.data.data.length > 0 && rows.length === 0 ? (
        <p>No question shown matches “{search.trim()}”.</p>
      ) : null}
      {rows.length > 0 && (
        <ScrollTable label="Bank questions to add">
          <thead>
            <tr>
              <th scope="col">Question</th>
              <th scope="col">Type</th>
              <th scope="col">Marks</th>
              <th scope="col">
                <span className="sr-only">Add</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((q) => (
              <tr key={q.id} data-bank-row>
                <td>{questionName(q)}</td>
                <td>{typeLabel(q.question_type)}</td>
                <td>{marksText(q.marks)}</td>
                <td>
                  <button
                    type="button"
                    className="secondary"
                    disabled={chosen.includes(q.id)}
                    onClick={() => onAdd(q.id)}
                    aria-label={`${chosen.includes(q.id) ? 'Added' : 'Add'}: ${questionName(q)}`}
                  >
                    {chosen.includes(q.id) ? 'Added' : 'Add'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
      {bank.data && bank.data.pagination.pages > 1 && (
        <Pager pagination={bank.data.pagination} page={page} onPage={setPage} what="the question bank" />
      )}
    </section>
  );
}
