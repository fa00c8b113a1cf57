import { count } from '../lib/format.js';
import type { ReactNode } from 'react';

/** A scrollable data table: one header cell a column, the rows as children. */
export function DataTable({ columns, children }: { columns: readonly string[]; children: ReactNode }) {
  return (
    <div className="table-scroll">
      <table className="data">
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** Asks for the next page of a list while some of it is not shown yet. */
export function ShowMore({ what, shown, total, onMore }: { what: string; shown: number; total: number; onMore: () => void }) {
  if (shown >= total) return null;
  return (
    <button type="button" className="more" onClick={onMore}>
      Show more {what} ({count(shown)} of {count(total)} shown)
    </button>
  );
}
