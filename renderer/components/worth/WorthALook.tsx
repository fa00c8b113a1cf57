import { useEffect } from 'react';
import type { WorthEntry } from '../../../shared/api.js';
import { plural } from '../../lib/format.js';
import { shortcutKeys } from '../../lib/shortcuts.js';
import { useSlice, useStores } from '../../state/context.js';
import { href } from '../../state/nav.js';
import { ConfirmDialog } from '../ConfirmDialog.js';
import { Keys } from '../Keys.js';
import { useActor } from '../ActingAs.js';
import { dismissEntry, keepEntry, rejectEntry } from './actions.js';

function Entry({ entry, current, onPick }: { entry: WorthEntry; current: boolean; onPick: () => void }) {
  const stores = useStores();
  const l = entry.learning;
  const keepable = l.state === 'provisional';
  return (
    <li className={`worth-item${current ? ' current' : ''}`} aria-current={current ? 'true' : undefined} data-worth={l.id} onClick={onPick}>
      <p className="worth-head">
        <span className="badge">{l.state}</span>
        <strong>{l.agent}</strong>
        <a className="worth-text" href={href('learnings', { id: l.id })}>
          {l.text}
        </a>
      </p>
      <ul className="worth-reasons">
        {entry.reasons.map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
      <div className="worth-actions">
        <button type="button" className="danger" onClick={() => stores.worth.getState().confirmReject(entry)} aria-keyshortcuts={shortcutKeys('worth-reject')}>
          Reject
        </button>
        {keepable && (
          <button type="button" onClick={() => void keepEntry(stores, entry)} aria-keyshortcuts={shortcutKeys('worth-keep')}>
            Keep
          </button>
        )}
        <button type="button" onClick={() => void dismissEntry(stores, entry)} aria-keyshortcuts={shortcutKeys('worth-dismiss')}>
          Dismiss
        </button>
      </div>
    </li>
  );
}

/**
 * "Worth a look" in Needs you: the learnings the evidence singles out, each with why, to reject,
 * keep or dismiss. It points; the operator decides (docs/window.md#worth-a-look).
 */
export function WorthALook() {
  const stores = useStores();
  const { worth } = stores;
  const actor = useActor();
  const entries = useSlice(worth, (s) => s.entries);
  const total = useSlice(worth, (s) => s.total);
  const cursor = useSlice(worth, (s) => s.cursor);
  const error = useSlice(worth, (s) => s.error);
  const confirming = useSlice(worth, (s) => s.confirming);

  useEffect(() => {
    void worth.getState().load();
  }, [worth]);

  useEffect(() => {
    document.querySelector('.worth-item.current')?.scrollIntoView({ block: 'nearest' });
  }, [cursor]);

  if (entries.length === 0 && !error) return null;
  return (
    <section className="worth" aria-labelledby="worth-title">
      <h2 id="worth-title" className="group-title">
        Worth a look ({total > entries.length ? `${entries.length} of ${total}` : entries.length})
      </h2>
      <p className="muted worth-hint">
        What the evidence singles out; nothing here changes by itself. <Keys id="worth-next" /> next, <Keys id="worth-reject" /> reject,{' '}
        <Keys id="worth-keep" /> keep, <Keys id="worth-dismiss" /> dismiss until the evidence changes.
      </p>
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
      <ul className="worth-list">
        {entries.map((entry, index) => (
          <Entry key={entry.learning.id} entry={entry} current={index === cursor} onPick={() => worth.getState().setCursor(index)} />
        ))}
      </ul>
      {confirming && (
        <ConfirmDialog
          title={`Reject this learning of ${confirming.learning.agent}?`}
          confirm="Reject 1"
          onCancel={() => worth.getState().confirmReject(null)}
          onConfirm={() => void rejectEntry(stores, confirming)}
        >
          <p className="prewrap">{confirming.learning.text}</p>
          <p>
            It is no longer given to runs, and {confirming.learning.agent} cannot propose it again. You can undo this for a while
            after. {plural(confirming.reasons.length, 'reason')} it is here: {confirming.reasons.join('; ')}.
          </p>
          <p>Recorded as {actor}.</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
