import type { NextRun, RunEvidence } from '../../../shared/api.js';
import type { HistoryEntry } from '../../../shared/domain.js';
import { count, percent, runsLeft } from '../../lib/format.js';
import { useSlice, useStores } from '../../state/context.js';
import { href } from '../../state/nav.js';
import { useActor } from '../ActingAs.js';
import { Time } from '../Time.js';
import { keepSelected, undoToast } from './actions.js';

function evidence(e: RunEvidence): string {
  if (e.runs === 0) return 'no finished runs yet';
  return `${count(e.runs)} ${e.runs === 1 ? 'run' : 'runs'}, ${count(e.succeeded)} succeeded (${percent(e.succeeded / e.runs)}; at least ${percent(e.wilson_lower)} with 95% confidence)`;
}

/** "rank 4 of 25 in the next run", or why the next run does not see it. */
export function nextRunWords(next: NextRun): string {
  switch (next.place) {
    case 'in_run':
      return `rank ${count(next.rank)} of ${count(next.of)} in the next run`;
    case 'below_cap':
      return `not in the next run: below the max_per_run cap (rank ${count(next.rank)}, cap ${count(next.cap)})`;
    case 'not_given':
      return `not given to runs: ${next.state}`;
  }
}

const KIND_WORDS: Record<HistoryEntry['kind'], string> = {
  proposed: 'proposed',
  echoed: 'echoed while active',
  lapsed: 'lapsed',
  rediscovered: 'rediscovered',
  confirmed: 'confirmed',
  rejected: 'rejected',
  kept: 'kept',
  undone: 'decision undone',
};

/** Everything about one learning, its history and the runs it was given to. Display only. */
export function LearningDetail() {
  const stores = useStores();
  const { learnings, desk, ui } = stores;
  const actor = useActor();
  const busy = useSlice(learnings, (s) => s.busy);
  const actionError = useSlice(learnings, (s) => s.actionError);
  const toastIds = useSlice(ui, (s) => s.toast?.undoIds ?? null);
  const undoing = useSlice(ui, (s) => s.toast?.undoing === true);
  const detailId = useSlice(learnings, (s) => s.detailId);
  const detail = useSlice(learnings, (s) => s.detail);
  const error = useSlice(learnings, (s) => s.detailError);
  const confirmAfter = useSlice(desk, (s) => s.info?.settings.learnings.confirm_after ?? 3);

  if (!detailId) return null;
  const close = (
    <button type="button" className="link close" onClick={() => void learnings.getState().openDetail(null)} aria-label="Close learning detail">
      ×
    </button>
  );
  if (error)
    return (
      <aside className="detail" aria-label="Learning detail">
        {close}
        <p role="alert" className="error-text">
          {error}
        </p>
      </aside>
    );
  if (!detail || detail.learning.id !== detailId)
    return (
      <aside className="detail" aria-label="Learning detail">
        {close}
        <p className="muted">Loading…</p>
      </aside>
    );
  const l = detail.learning;
  // The toast's Undo, offered here too while the toast offers it for a decision that changed this
  // learning; it is the toast's own undo (undoToast), so a press here and one on the toast or `u`
  // cannot send it twice, and a failure shows on the toast.
  const undoable = toastIds?.includes(l.id) === true;
  return (
    <aside className="detail" aria-labelledby="learning-detail-title">
      {close}
      <h2 id="learning-detail-title">
        <span className={`state state-${l.state}`}>{l.state}</span> learning of {l.agent}
      </h2>
      <p className="learning-text prewrap">{l.text}</p>
      <div className="detail-actions" role="group" aria-label="Decide on this learning">
        {detail.decisions.includes('reject') && (
          <button type="button" className="danger" disabled={busy} onClick={() => ui.getState().openDialog('reject-detail')}>
            Reject this learning…
          </button>
        )}
        {detail.decisions.includes('keep') && (
          <button type="button" disabled={busy} onClick={() => void keepSelected(stores, { id: l.id })}>
            Keep this learning as {actor}
          </button>
        )}
        {undoable && toastIds && (
          <button type="button" disabled={busy || undoing} onClick={() => undoToast(stores)}>
            {toastIds.length === 1 ? 'Undo' : `Undo that decision (all ${count(toastIds.length)})`}
          </button>
        )}
        {actionError && (
          <span role="alert" className="error-text">
            {actionError}
          </span>
        )}
      </div>
      <p className="next-run">
        <strong>In the next run?</strong> {nextRunWords(detail.next_run)}
      </p>
      <dl className="fields">
        <dt>Id</dt>
        <dd className="mono">{l.id}</dd>
        <dt>Impact (agent's own rating)</dt>
        <dd>{l.impact}</dd>
        <dt>Runs left</dt>
        <dd>{runsLeft(l)}</dd>
        <dt>Proposals</dt>
        <dd>{l.proposals}</dd>
        <dt>Rediscoveries</dt>
        <dd>
          {l.rediscoveries} of {confirmAfter}
        </dd>
        <dt>Echoes</dt>
        <dd>{l.echoes}</dd>
        <dt>First proposed</dt>
        <dd>
          <Time at={l.first_at} />
        </dd>
        <dt>Last proposed</dt>
        <dd>
          <Time at={l.last_at} />
        </dd>
        <dt>Live since</dt>
        <dd>
          <Time at={l.live_since} />
        </dd>
        <dt>Lapsed</dt>
        <dd>
          <Time at={l.lapsed_at} />
        </dd>
        <dt>Decided by</dt>
        <dd>
          {l.decided_by ?? '—'}
          {l.decided_at && (
            <>
              {' '}
              <Time at={l.decided_at} />
            </>
          )}
        </dd>
        <dt>Reason</dt>
        <dd className="prewrap">{l.reason ?? '—'}</dd>
      </dl>
      <h3>Evidence (for your eye only; it decides nothing)</h3>
      <p>
        Given to {evidence(detail.given)}.
        <br />
        All runs of {l.agent}: {evidence(detail.agent_overall)}.
      </p>
      <h3>History</h3>
      <ol className="history">
        {detail.history.map((h, i) => (
          <li key={i}>
            <Time at={h.at} /> — {KIND_WORDS[h.kind]}
            {h.state_before && h.state_before !== h.state_after ? ` (${h.state_before} → ${h.state_after})` : ''}
            {h.by && <> by {h.by}</>}
            {h.run && (
              <>
                {' '}
                in run{' '}
                <a className="mono" href={href('runs', { run: h.run })}>
                  {h.run}
                </a>
              </>
            )}
            {h.reason && <span className="muted"> — “{h.reason}”</span>}
          </li>
        ))}
      </ol>
      <h3>Runs it was given to ({detail.runs.length})</h3>
      {detail.runs.length === 0 ? (
        <p className="muted">Not given to any recorded run yet.</p>
      ) : (
        <ul className="plain">
          {detail.runs.map((r) => (
            <li key={r.run}>
              <a className="mono" href={href('runs', { run: r.run })}>
                {r.run}
              </a>{' '}
              <Time at={r.started_at} /> — {r.outcome ?? 'running'}
            </li>
          ))}
        </ul>
      )}
    </aside>
  );
}
