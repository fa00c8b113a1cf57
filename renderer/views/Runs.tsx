import { useEffect, useRef } from 'react';
import { DataTable, ShowMore } from '../components/DataTable.js';
import { FilterSelect } from '../components/FilterSelect.js';
import { Time } from '../components/Time.js';
import { formatFlags } from '../lib/format.js';
import { useSlice, useStores } from '../state/context.js';
import { href } from '../state/nav.js';

function RunDetail() {
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
      <h3>What it was told ({detail.given.length} learnings)</h3>
      {detail.given.length === 0 ? (
        <p className="muted">No learnings were given to this run.</p>
      ) : (
        <ol className="given">
          {detail.given.map((g) => (
            <li key={g.id} className={detail.added.includes(g.id) ? 'added' : undefined}>
              <span className={`state state-${g.state}`}>{g.state}</span> <span className={`impact-${g.impact}`}>{g.impact}</span>{' '}
              <a href={href('learnings', { id: g.id })}>{g.text}</a>
              {detail.added.includes(g.id) && <span className="badge badge-new">new since previous run</span>}
            </li>
          ))}
        </ol>
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
  const rows = useSlice(runs, (s) => s.runs);
  const runsTotal = useSlice(runs, (s) => s.runsTotal);
  const chains = useSlice(runs, (s) => s.chains);
  const chainsTotal = useSlice(runs, (s) => s.chainsTotal);
  const loaded = useSlice(runs, (s) => s.loaded);
  const error = useSlice(runs, (s) => s.error);
  const runId = useSlice(runs, (s) => s.runId);
  const agents = useSlice(learnings, (s) => s.agents);
  const chainRef = useRef<HTMLTableRowElement>(null);

  useEffect(() => {
    if (!loaded) void runs.getState().load();
  }, [loaded, runs]);
  useEffect(() => {
    if (run) void runs.getState().openRun(run);
  }, [run, runs]);
  useEffect(() => {
    if (chain) chainRef.current?.scrollIntoView?.({ block: 'center' });
  }, [chain, chains]);

  const agentNames = [...new Set([...agents, ...rows.map((r) => r.agent), ...chains.map((c) => c.agent)])].sort();

  return (
    <div className="split runs-view">
      <section className="pane pane-list" aria-labelledby="runs-title">
        <h1 id="runs-title">Runs & chains</h1>
        <FilterSelect label="Agent" value={agent} all="all agents" choices={agentNames} onChange={(a) => runs.getState().setAgent(a)} />
        {error && (
          <p role="alert" className="error-text">
            {error}
          </p>
        )}
        <h2>Chains ({chainsTotal})</h2>
        <DataTable columns={['Chain', 'Agent', 'State', 'Runs', 'Answers request', 'Continued as', 'Created']}>
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
            </tr>
          ))}
        </DataTable>
        <ShowMore what="chains" shown={chains.length} total={chainsTotal} onMore={() => runs.getState().more('chains')} />
        <h2>Runs ({runsTotal})</h2>
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
              <td>{r.outcome ?? 'running'}</td>
              <td>{r.learnings.length}</td>
            </tr>
          ))}
        </DataTable>
        <ShowMore what="runs" shown={rows.length} total={runsTotal} onMore={() => runs.getState().more('runs')} />
      </section>
      <section className="pane pane-detail" aria-label="Run">
        <RunDetail />
      </section>
    </div>
  );
}
