import type { Schemas } from '../../api';

/** Previous / next page buttons under a paginated table, with where the list stands. */
export function Pager({
  pagination,
  page,
  onPage,
  what,
}: {
  pagination: Schemas['Pagination'] | undefined;
  page: number;
  onPage: (page: number) => void;
  what: string;
}) {
  if (!pagination) return null;
  return (
    <nav className="row pager" aria-label={`Pages of ${what}`}>
      <button type="button" className="secondary" disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous page
      </button>
      <span>
        Page {pagination.page} of {Math.max(pagination.pages, 1)} ({pagination.total} in all)
      </span>
      <button type="button" className="secondary" disabled={page >= pagination.pages} onClick={() => onPage(page + 1)}>
        Next page
      </button>
    </nav>
  );
}
