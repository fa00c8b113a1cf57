import { ago, when } from '../lib/format.js';

/** A time from the ledger: local date and time shown, the raw value in the tooltip. */
export function Time({ at, relative }: { at: string | null | undefined; relative?: boolean }) {
  if (!at) return <span className="muted">—</span>;
  return (
    <time dateTime={at} title={at}>
      {relative ? ago(at) : when(at)}
    </time>
  );
}
