import { useEffect } from 'react';
import type { WorthEntry } from '../../../shared/api.js';
import { plural } from '../../lib/format.js';
import { shortcutKeys } from '../../lib/shortcuts.js';
import { useSlice, useStores } from '../../state/context.js';
import { href } from '../../state/nav.js';
import { Keys } from '../Keys.js';
import { RejectDialog } from '../learnings/RejectDialog.js';
import { dismissEntry, keepEntry } from './actions.js';

function Entry({ entry, current, onPick }: { entry: WorthEntry; current: boolean; onPick: () => void }) {
  const stores = useStores();
  const l = entry.learning;
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
        {entry.decisions.includes('reject') && (
          <button type="button" className="danger" onClick={() => stores.worth.getState().confirmReject(entry)} aria-keyshortcuts={shortcutKeys('worth-reject')}>
            Reject
          </button>
        )}
        {entry.decisions.includes('keep') && (
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
        <RejectDialog scope={{ id: confirming.learning.id }} onClose={() => worth.getState().confirmReject(null)} onRejected={() => worth.getState().load()}>
          <blockquote className="prewrap">{confirming.learning.text}</blockquote>
          <p>
            A learning of {confirming.learning.agent}. {plural(confirming.reasons.length, 'reason')} it is here: {confirming.reasons.join('; ')}.
          </p>
        </RejectDialog>
      )}
    </section>
  );
}
