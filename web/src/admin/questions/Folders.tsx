import { useState } from 'react';
import { ApiError, type Schemas, unwrap } from '../../api';
import { useSession } from '../../session';
import { ErrorMessage, Field, useAction } from '../../ui';

type Folder = Schemas['Folder'];

/**
 * Why a folder could not be deleted, in plain words: the API refuses (409) while it holds
 * questions or tests, and the person has to empty it first.
 */
function refusalOf(folder: Folder, error: unknown): unknown {
  if (!(error instanceof ApiError) || error.status !== 409) return error;
  const what = /\btests?\b/i.test(error.message) ? 'tests' : 'questions';
  const how =
    what === 'questions'
      ? 'Move each of them to another folder (Edit, then Folder) or delete them, then delete the folder. The bank below now lists them.'
      : 'Move them to another folder or delete them, then delete the folder.';
  return new Error(
    `The folder "${folder.name}" is not empty: it still holds ${what}, so it cannot be deleted. ${how}`,
    {
      cause: error,
    },
  );
}

/** The organization's folders: create, rename, and delete an empty one. */
export function Folders({
  clientId,
  folders,
  onChanged,
  onShow,
}: {
  clientId: string;
  folders: Folder[];
  /** After a change; with the id of a folder deleted. */
  onChanged: (deletedId?: string) => void;
  /** Lists the questions of a folder in the bank (after a refused delete). */
  onShow: (folderId: string) => void;
}) {
  const { api } = useSession();
  const action = useAction();
  const [name, setName] = useState('');
  const [renaming, setRenaming] = useState<{ id: string; name: string } | null>(null);
  const [notice, setNotice] = useState('');

  const create = () =>
    action.run(async () => {
      setNotice('');
      const created = await unwrap(api.POST('/api/folders', { body: { name, client_id: clientId } }));
      setName('');
      setNotice(`Folder "${created.name}" created.`);
      onChanged();
    });
  const rename = (folder: Folder, to: string) =>
    action.run(async () => {
      setNotice('');
      const renamed = await unwrap(
        api.PATCH('/api/folders/{folderId}', { params: { path: { folderId: folder.id } }, body: { name: to } }),
      );
      setRenaming(null);
      setNotice(`Folder "${folder.name}" renamed to "${renamed.name}".`);
      onChanged();
    });
  const remove = (folder: Folder) =>
    action.run(async () => {
      setNotice('');
      if (!confirm(`Delete the folder "${folder.name}"?`)) return;
      try {
        await unwrap(api.DELETE('/api/folders/{folderId}', { params: { path: { folderId: folder.id } } }));
      } catch (err) {
        if (err instanceof ApiError && err.status === 409) onShow(folder.id);
        throw refusalOf(folder, err);
      }
      setNotice(`Folder "${folder.name}" deleted.`);
      onChanged(folder.id);
    });

  return (
    <section aria-labelledby="folders-heading">
      <h2 id="folders-heading">Folders</h2>
      <form
        aria-label="New folder"
        className="row"
        onSubmit={(e) => {
          e.preventDefault();
          void create();
        }}
      >
        <Field label="New folder name">
          <input required maxLength={100} value={name} onChange={(e) => setName(e.target.value)} />
        </Field>
        <button type="submit" disabled={action.busy}>
          Create folder
        </button>
      </form>
      <ErrorMessage error={action.error} />
      {notice && (
        <p role="status" className="note">
          {notice}
        </p>
      )}
      {folders.length === 0 ? (
        <p>No folder yet.</p>
      ) : (
        <ul className="folders">
          {folders.map((folder) =>
            renaming?.id === folder.id ? (
              <li key={folder.id}>
                <form
                  aria-label={`Rename ${folder.name}`}
                  className="row"
                  onSubmit={(e) => {
                    e.preventDefault();
                    void rename(folder, renaming.name);
                  }}
                >
                  <Field label={`New name for ${folder.name}`}>
                    <input
                      required
                      maxLength={100}
                      value={renaming.name}
                      onChange={(e) => setRenaming({ id: folder.id, name: e.target.value })}
                    />
                  </Field>
                  <button type="submit" disabled={action.busy}>
                    Save name
                  </button>
                  <button type="button" className="secondary" onClick={() => setRenaming(null)}>
                    Cancel
                  </button>
                </form>
              </li>
            ) : (
              <li key={folder.id}>
                <span className="row inline-actions">
                  <span>{folder.name}</span>
                  <button
                    type="button"
                    className="secondary"
                    aria-label={`Rename ${folder.name}`}
                    onClick={() => {
                      action.clear();
                      setRenaming({ id: folder.id, name: folder.name });
                    }}
                  >
                    Rename
                  </button>
                  <button
                    type="button"
                    className="danger"
                    aria-label={`Delete ${folder.name}`}
                    disabled={action.busy}
                    onClick={() => void remove(folder)}
                  >
                    Delete
                  </button>
                </span>
              </li>
            ),
          )}
        </ul>
      )}
    </section>
  );
}
