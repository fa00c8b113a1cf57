import { useEffect, useRef, useState } from 'react';
import type { LearningOrigin, LearningRef } from '../../shared/api.js';
import { DataTable, ShowMore } from '../components/DataTable.js';
import { useActor } from '../components/ActingAs.js';
import { Dialog } from '../components/Dialog.js';
import { FilterSelect } from '../components/FilterSelect.js';
import { useDebouncedSearch } from '../components/useDebouncedSearch.js';
import { Time } from '../components/Time.js';
import { rejectOrigin } from '../components/learnings/actions.js';
import { count, formatFlags, plural, runsLeft } from '../lib/format.js';
import { messageOf } from '../state/errors.js';
import { useSlice, useStores } from '../state/context.js';
import { href } from '../state/nav.js';
import { OUTCOME_FILTERS } from '../state/runs.js';


/** An origin to reject, and the words that name it in the confirmation: "run run_01…". */
interface OriginAsked {
  origin: LearningOrigin;
  label: string;
}

/**
 * Confirms a rejection by origin (docs/rules.md#a-persons-decisions): asks the Desk which
 * learnings it names now, states how many and lists them, then rejects them as one decision with
 * the usual toast and Undo. Those already rejected are counted apart: the decision leaves them.
 */
function RejectOriginDialog({ asked, onClose }: { asked: OriginAsked; onClose: () => void }) {
  const stores = useStores();
  const [found, setFound] = useState<LearningRef[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const actor = useActor();
  useEffect(() => {
    let live = true;
    stores.api.call('learnings.origin', { origin: asked.origin }).then(
      (answer) => live && setFound(answer.learnings),
      (failure: unknown) => live && setError(messageOf(failure)),
    );
    return () => {
      live = false;
    };
  }, [asked, stores]);
  const open = found?.filter((l) => l.state !== 'rejected') ?? [];
  const already = (found?.length ?? 0) - open.length;

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    const done = await rejectOrigin(stores, asked.origin, reason);
    setBusy(false);
    if (done) onClose();
    else setError(stores.learnings.getState().actionError ?? 'The rejection failed');
  }

  const what = found === null ? `what ${asked.label} proposed` : `the ${plural(open.length, 'learning')} ${asked.label} proposed`;
  const title = `Reject ${what} as ${actor}?`;
  return (
    <Dialog title={title} onClose={onClose} initialFocus="input" wide>
      <form onSubmit={(e) => void submit(e)}>
        {found === null && !error && <p className="muted">Finding the learnings it proposed…</p>}
        {found !== null && (
          <>
            <p>
              {open.length === 0
                ? 'It proposed no learning that is not rejected already: there is nothing to reject.'
                : 'Each learning it proposed first is rejected: no longer given to runs, and its agent cannot propose it again. Learnings it only echoed or rediscovered are not touched. You can undo this for a while after.'}
              {already > 0 && ` ${plural(already, 'learning')} it proposed ${already === 1 ? 'is' : 'are'} rejected already and stay${already === 1 ? 's' : ''} as ${already === 1 ? 'it is' : 'they are'}.`}
            </p>
            {open.length > 0 && (
              <ol className="origin-list" aria-label="Learnings to reject">
                {open.map((l) => (
                  <li key={l.id}>
                    <span className={`state state-${l.state}`}>{l.state}</span> {l.text}
                  </li>
                ))}
              </ol>
            )}
            {open.length > 0 && (
              <>
                <label htmlFor="origin-reason">Reason (optional)</label>
                <input id="origin-reason" className="wide-input" value={reason} onChange={(e) => setReason(e.target.value)} autoComplete="off" />
              </>
            )}
          </>
        )}
        {error && (
          <p role="alert" className="error-text">
            {error}
          </p>
        )}
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="danger" disabled={busy || open.length === 0}>
            Reject {count(open.length)}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** A learning as it stood when the run started, and what it is now when that differs. */
function StoodThen({ state, runs_left, now }: { state: LearningRef['state'] | null; runs_left: number | null; now: LearningRef['state'] }) {
  if (state === null) return <span className="muted">not in the ledger then</span>;
  return (
    <>
      <span className={`state state-${state}`}>{state}</span>
      {state === 'provisional' && runs_left !== null && <span className="muted"> ({runsLeft({ state, runs_left })})</span>}
      {now !== state && (
        <span className="since">
          {' '}
          → now <span className={`state state-${now}`}>{now}</span>
        </span>
      )}
    </>
  );
}

function RunDetail({ onReject }: { onReject: (asked: OriginAsked) => void }) {
  const { runs } = useStores();
  const runId = useSlice(runs, (s) => s.runId);
  const detail = useSlice(runs, (s) => s.detail);
  const error = useSlice(runs, (s) => s.detailError);
  if (!runId) return <p className="empty">Pick a run to see what it was told.</p>;
  if (error)
    return (
      <p role="alert" className="error-text">
        {error}
      </p>
    );
  if (!detail || detail.run.run !== runId) return <p className="muted">Loading…</p>;
  const r = detail.run;
  const byId = new Map(detail.given.map((g) => [g.id, g]));
  const discovered = detail.proposed.filter((p) => p.outcome === 'new' && p.now !== null && p.now !== 'rejected').length;
  return (
    <article aria-labelledby="run-title">
      <h2 id="run-title">
        Run <span className="mono">{r.run}</span>
      </h2>
      <dl className="fields">
        <dt>Agent</dt>
        <dd>{r.agent}</dd>
        <dt>Chain</dt>
        <dd>
          <a className="mono" href={href('runs', { chain: r.chain, run: r.run })}>
            {r.chain}
          </a>
        </dd>
        <dt>Workflow</dt>
        <dd className="mono">{r.workflow}</dd>
        <dt>Flags</dt>
        <dd className="mono">{formatFlags(r.flags)}</dd>
        <dt>Routes</dt>
        <dd className="mono">{r.routes.length ? r.routes.join(', ') : 'none'}</dd>
        <dt>Started</dt>
        <dd>
          <Time at={r.started_at} />
        </dd>
        <dt>Finished</dt>
        <dd>
          <Time at={r.finished_at} /> {r.outcome ?? 'still running'}
        </dd>
        {r.answers && (
          <>
            <dt>Started by the reply to</dt>
            <dd>
              <a className="mono" href={href('needs', { request: r.answers })}>
                {r.answers}
              </a>
            </dd>
          </>
        )}
      </dl>
      {discovered > 0 && (
        <p>
          <button type="button" className="danger" onClick={() => onReject({ origin: { run: r.run }, label: `run ${r.run}` })}>
            Reject the {plural(discovered, 'learning')} it proposed…
          </button>
        </p>
      )}
      <h3>What it was told ({plural(detail.given.length, 'learning')}, as they stood when it started)</h3>
      {detail.given.length === 0 ? (
        <p className="muted">No learnings were given to this run.</p>
      ) : (
        <ol className="given">
          {detail.given.map((g) => (
            <li key={g.id} className={detail.added.includes(g.id) ? 'added' : undefined}>
              <StoodThen state={g.state} runs_left={g.runs_left} now={g.now} /> <span className={`impact-${g.impact}`}>{g.impact}</span>{' '}
              <a href={href('learnings', { id: g.id })}>{g.text}</a>
              {detail.added.includes(g.id) && <span className="badge badge-new">new since previous run</span>}
            </li>
          ))}
        </ol>
      )}
      <h3>What it proposed ({plural(detail.proposed.length, 'proposal')})</h3>
      {detail.proposed.length === 0 ? (
        <p className="muted">It proposed nothing.</p>
      ) : (
        <ol className="proposed">
          {detail.proposed.map((p, i) => (
            <li key={`${p.at}-${i}`}>
              <span className={`proposal-outcome outcome-${p.outcome}`}>{p.outcome}</span>{' '}
              {p.learning_id ? <a href={href('learnings', { id: p.learning_id })}>{p.text}</a> : <span>{p.text}</span>}
              {p.reason && <span className="muted"> — {p.reason}</span>}
              {p.now && (
                <span className="since">
                  {' '}
                  · now <span className={`state state-${p.now}`}>{p.now}</span>
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
      <h3>What it asked ({plural(detail.asked.length, 'help request')})</h3>
      {detail.asked.length === 0 ? (
        <p className="muted">It asked for no help.</p>
      ) : (
        <ul className="plain">
          {detail.asked.map((h) => (
            <li key={h.id}>
              <a className="mono" href={href('needs', { request: h.id })}>
                {h.id}
              </a>{' '}
              {h.fatal && <span className="badge badge-fatal">fatal</span>} {h.state} — {h.question}
            </li>
          ))}
        </ul>
      )}
      <h3>Changed since the agent's previous run</h3>
      {detail.previous === null ? (
        <p className="muted">This is the first recorded run of {r.agent}.</p>
      ) : (
        <>
          <p>
            Previous run:{' '}
            <a className="mono" href={href('runs', { run: detail.previous })}>
              {detail.previous}
            </a>
          </p>
          {detail.added.length === 0 && detail.removed.length === 0 ? (
            <p className="muted">Nothing: it was told the same.</p>
          ) : (
            <ul className="plain">
              {detail.added.map((id) => (
                <li key={`a-${id}`} className="added">
                  + added: <a href={href('learnings', { id })}>{byId.get(id)?.text ?? id}</a>
                </li>
              ))}
              {detail.removed.map((id) => (
                <li key={`r-${id}`} className="removed">
                  − no longer given: <a href={href('learnings', { id })} className="mono">{id}</a>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </article>
  );
}

export function Runs({ run, chain }: { run?: string | undefined; chain?: string | undefined }) {
  const { runs, learnings } = useStores();
  const agent = useSlice(runs, (s) => s.agent);
  const outcome = useSlice(runs, (s) => s.outcome);
  const workflow = useSlice(runs, (s) => s.workflow);
  const search = useSlice(runs, (s) => s.search);
  const workflows = useSlice(runs, (s) => s.workflows);
  const rows = useSlice(runs, (s) => s.runs);
  const runsTotal = useSlice(runs, (s) => s.runsTotal);
  const chains = useSlice(runs, (s) => s.chains);
  const chainsTotal = useSlice(runs, (s) => s.chainsTotal);
  const loaded = useSlice(runs, (s) => s.loaded);
  const error = useSlice(runs, (s) => s.error);
  const runId = useSlice(runs, (s) => s.runId);
  const agents = useSlice(learnings, (s) => s.agents);
  const chainRef = useRef<HTMLTableRowElement>(null);
  const [asked, setAsked] = useState<OriginAsked | null>(null);

  useEffect(() => {
    runs.getState().loadFirst();
  }, [runs]);
  // The workflow choices are the view's, not a page's: asked once each time the view opens (and
  // again after the ledger changes, by the live refresh), not with every listing.
  useEffect(() => {
    void runs.getState().loadWorkflows();
  }, [runs]);
  useEffect(() => {
    if (run) void runs.getState().openRun(run);
  }, [run, runs]);
  useEffect(() => {
    if (chain) chainRef.current?.scrollIntoView?.({ block: 'center' });
  }, [chain, chains]);

  const agentNames = [...new Set([...agents, ...rows.map((r) => r.agent), ...chains.map((c) => c.agent)])].sort();
  const setFilter = runs.getState().setFilter;
  const [typed, onSearch] = useDebouncedSearch(search, (value) => {
    if (runs.getState().search !== value) setFilter({ search: value });
  });

  return (
    <div className="split runs-view">
      <section className="pane pane-list" aria-labelledby="runs-title">
        <h1 id="runs-title">Runs & chains</h1>
        <div className="filterbar" role="search" aria-label="Find runs">
          <FilterSelect label="Agent" value={agent} all="all agents" choices={agentNames} onChange={(a) => setFilter({ agent: a })} />
          <FilterSelect label="Outcome" value={outcome} all="any outcome" choices={OUTCOME_FILTERS} onChange={(o) => setFilter({ outcome: o })} />
          <FilterSelect label="Workflow" value={workflow} all="all workflows" choices={workflows} onChange={(w) => setFilter({ workflow: w })} />
          <label className="inline-label search-label" htmlFor="runs-search">
            Find id
            <input
              id="runs-search"
              type="search"
              value={typed}
              placeholder="run, chain or request id, or its start"
              onChange={(e) => onSearch(e.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
          </label>
          {outcome !== 'failed' && (
            <button type="button" className="link" onClick={() => setFilter({ outcome: 'failed' })}>
              Show failed runs
            </button>
          )}
        </div>
        {error && (
          <p role="alert" className="error-text">
            {error}
          </p>
        )}
        <h2>Chains ({count(chainsTotal)})</h2>
        <DataTable columns={['Chain', 'Agent', 'State', 'Runs', 'Answers request', 'Continued as', 'Created', 'Its learnings']}>
          {chains.map((c) => (
            <tr key={c.chain} ref={c.chain === chain ? chainRef : undefined} className={c.chain === chain ? 'highlight' : undefined}>
              <td className="mono">
                <a href={href('runs', { chain: c.chain })} aria-current={c.chain === chain ? 'true' : undefined}>
                  {c.chain}
                </a>
              </td>
              <td>{c.agent}</td>
              <td>
                <span className={`chain-state chain-${c.state}`}>{c.state.replace('_', ' ')}</span>
              </td>
              <td>{c.runs}</td>
              <td className="mono">{c.answers ? <a href={href('needs', { request: c.answers })}>{c.answers}</a> : '—'}</td>
              <td className="mono">
                {c.continued_as ? <a href={href('runs', { chain: c.continued_as })}>{c.continued_as}</a> : '—'}
              </td>
              <td>
                <Time at={c.created_at} />
              </td>
              <td>
                <button
                  type="button"
                  className="link"
                  aria-label={`Reject the learnings chain ${c.chain} proposed`}
                  onClick={() => setAsked({ origin: { chain: c.chain }, label: `chain ${c.chain}` })}
                >
                  Reject…
                </button>
              </td>
            </tr>
          ))}
        </DataTable>
        <ShowMore what="chains" shown={chains.length} total={chainsTotal} onMore={() => runs.getState().more('chains')} />
        <h2>Runs ({count(runsTotal)})</h2>
        <DataTable columns={['Run', 'Agent', 'Chain', 'Workflow', 'Started', 'Outcome', 'Learnings given']}>
          {rows.map((r) => (
            <tr key={r.run} className={[r.run === runId ? 'current' : '', chain && r.chain === chain ? 'highlight' : ''].join(' ').trim() || undefined}>
              <td className="mono">
                <a href={href('runs', { run: r.run, chain })} aria-current={r.run === runId ? 'true' : undefined}>
                  {r.run}
                </a>
              </td>
              <td>{r.agent}</td>
              <td className="mono">{r.chain}</td>
              <td className="mono">{r.workflow}</td>
              <td>
                <Time at={r.started_at} />
              </td>
              <td className={r.outcome === 'failed' ? 'outcome-failed' : undefined}>{r.outcome ?? 'running'}</td>
              <td>{r.learnings.length}</td>
            </tr>
          ))}
        </DataTable>
        {loaded && rows.length === 0 && <p className="muted">No run matches.</p>}
        <ShowMore what="runs" shown={rows.length} total={runsTotal} onMore={() => runs.getState().more('runs')} />
      </section>
      <section className="pane pane-detail" aria-label="Run">
        <RunDetail onReject={setAsked} />
      </section>
      {asked && <RejectOriginDialog asked={asked} onClose={() => setAsked(null)} />}
    </div>
  );
}
