import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';

/** What a confirmation asks: its title, what will happen, and the words of the button that does it. */
export interface ConfirmRequest {
  title: string;
  body: ReactNode;
  confirm: string;
  /** The action cannot be undone, or stops something: its button is red. */
  danger?: boolean;
}

/**
 * A confirmation as a native modal <dialog>: focus moves into it (on Cancel, the safe choice), stays
 * there, Escape cancels, and focus returns to the button that opened it. `ask` answers whether the
 * person confirmed; render `element` once in the page.
 */
export function useConfirm(): { element: ReactNode; ask: (request: ConfirmRequest) => Promise<boolean> } {
  const [pending, setPending] = useState<{ request: ConfirmRequest; resolve: (ok: boolean) => void } | null>(null);
  const ask = useCallback(
    (request: ConfirmRequest) => new Promise<boolean>((resolve) => setPending({ request, resolve })),
    [],
  );
  const element = pending ? (
    <ConfirmDialog
      request={pending.request}
      onDone={(ok) => {
        setPending(null);
        pending.resolve(ok);
      }}
    />
  ) : null;
  return { element, ask };
}

function ConfirmDialog({ request, onDone }: { request: ConfirmRequest; onDone: (ok: boolean) => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    cancel.current?.focus();
  }, []);
  return (
    <dialog
      ref={dialog}
      className="confirm"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-body`}
      style={{ maxWidth: '520px', border: '1px solid #d7dce3', borderRadius: '10px', padding: '1rem 1.2rem' }}
      onClose={() => onDone(dialog.current?.returnValue === 'confirm')}
    >
      <h2 id={`${id}-title`}>{request.title}</h2>
      <div id={`${id}-body`}>{request.body}</div>
      {/* method="dialog": a button's value becomes the dialog's returnValue, and the dialog closes. */}
      <form method="dialog" className="row">
        <button ref={cancel} type="submit" value="cancel" className="secondary">
          Cancel
        </button>
        <button type="submit" value="confirm" className={request.danger ? 'danger' : undefined}>
          {request.confirm}
        </button>
      </form>
    </dialog>
  );
}
