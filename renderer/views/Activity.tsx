import { useEffect } from 'react';
import { PROPOSAL_OUTCOMES } from '../../shared/domain.js';
import { DailyChart } from '../components/DailyChart.js';
import { DataTable, ShowMore } from '../components/DataTable.js';
import { FilterSelect } from '../components/FilterSelect.js';
import { Time } from '../components/Time.js';
import { count } from '../lib/format.js';
import { OUTCOME_WHY } from '../lib/phrases.js';
import { useSlice, useStores } from '../state/context.js';
import { href } from '../state/nav.js';

/** Everything the Desk took up, refused or deleted, so nothing it refused is invisible. */
export function Activity() {
  const { activity, desk } = useStores();
  const s = useSlice(activity, (x) => x);
  const settingsError = useSlice(desk, (x) => x.info?.settings_error ?? null);
  const warnings = useSlice(desk, (x) => x.info?.settings_warnings);

  useEffect(() => {
    if (!activity.getState().loaded) void activity.getState().load();
  }, [activity]);

  return (
    <div className="activity">
      <h1>Activity</h1>
      {s.error && (
        <p role="alert" className="error-text">
          {s.error}
        </p>
      )}
      {(settingsError || (warnings && warnings.length > 0)) && (
        <section aria-labelledby="settings-title">
          <h2 id="settings-title">Settings</h2>
          {settingsError && <p className="error-text">layover.toml refused: {settingsError}</p>}
          {warnings?.map((w) => (
            <p key={w} className="warn-text">
              {w}
            </p>
          ))}
        </section>
      )}
      {s.refusedFiles.length > 0 && (
        <section aria-labelledby="refused-files-title">
          <h2 id="refused-files-title">Events files refused</h2>
          <p className="muted">
            A file the Desk has read is only ever appended to. These were cut or rewritten since, so nothing more is read from
            them until they are read again from the start; what the ledger already holds of them is then not applied twice.
          </p>
          <DataTable columns={['File', 'Why', '']}>
            {s.refusedFiles.map((f) => (
              <tr key={f.file} data-refused-file={f.file}>
                <td className="mono">{f.file}</td>
                <td className="error-text">{f.reason}</td>
                <td>
                  <button type="button" onClick={() => void activity.getState().reread(f.file)}>
                    Read again from the start
                  </button>
                </td>
              </tr>
            ))}
          </DataTable>
        </section>
      )}
      <section aria-labelledby="daily-title">
        <h2 id="daily-title">Per day</h2>
        <DailyChart days={s.daily} />
      </section>
      <section aria-labelledby="refusals-title">
        <h2 id="refusals-title">Refused proposals by rule</h2>
        {s.refusalsByRule.length === 0 ? (
          <p className="muted">No proposal has been refused.</p>
        ) : (
          <DataTable columns={['Rule', 'Refused', 'Last']}>
            {s.refusalsByRule.map((g) => (
              <tr key={g.rule} data-rule={g.rule}>
                <td className="mono">{g.rule}</td>
                <td>{count(g.count)}</td>
                <td>
                  <Time at={g.last_at} />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
      <section aria-labelledby="proposals-title">
        <h2 id="proposals-title">Proposal log ({count(s.proposalsTotal)})</h2>
        <p className="muted">The same refused proposal is listed once, with how many times (×8) and when last.</p>
        <FilterSelect
          label="Outcome"
          value={s.outcome}
          all="all outcomes"
          choices={PROPOSAL_OUTCOMES}
          onChange={(outcome) => activity.getState().setOutcome(outcome)}
        />
        <DataTable columns={['At', 'Agent', 'Outcome', 'Impact', 'Text', 'Why', 'Run']}>
          {s.proposals.map((p, i) => (
            <tr key={`${p.at}-${i}`}>
              <td>
                <Time at={p.at} />
              </td>
              <td>{p.agent}</td>
              <td>
                <span className={`outcome-${p.outcome}`}>{p.outcome}</span>
                {p.count > 1 && (
                  <span className="times" title={`proposed ${count(p.count)} times; the time is the latest`}>
                    {' '}
                    ×{count(p.count)}
                  </span>
                )}
              </td>
              <td>{p.impact}</td>
              <td className="cell-text">{p.learning_id ? <a href={href('learnings', { id: p.learning_id })}>{p.text}</a> : p.text}</td>
              <td>{p.reason ?? <span className="muted">{OUTCOME_WHY[p.outcome]}</span>}</td>
              <td className="mono">{p.run ? <a href={href('runs', { run: p.run })}>{p.run}</a> : '—'}</td>
            </tr>
          ))}
        </DataTable>
        <ShowMore what="entries" shown={s.proposals.length} total={s.proposalsTotal} onMore={() => void activity.getState().moreProposals()} />
      </section>
      <section aria-labelledby="refused-title">
        <h2 id="refused-title">Refused event lines ({count(s.refusedTotal)})</h2>
        {s.refused.length === 0 ? (
          <p className="muted">Every line of the events files was a valid event.</p>
        ) : (
          <DataTable columns={['File', 'Line', 'Reason', 'Excerpt', 'Seen']}>
            {s.refused.map((r) => (
              <tr key={`${r.file}:${r.line}`}>
                <td className="mono">{r.file}</td>
                <td>{r.line}</td>
                <td>{r.reason}</td>
                <td className="mono cell-text">{r.excerpt}</td>
                <td>
                  <Time at={r.seen_at} />
                </td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
      <section aria-labelledby="sweeps-title">
        <h2 id="sweeps-title">Sweeps</h2>
        {s.sweeps.length === 0 ? (
          <p className="muted">No sweep has run yet.</p>
        ) : (
          <DataTable columns={['At', 'Help requests', 'Runs', 'Log entries', 'Refused lines', 'Event files', 'Lapsed learnings', 'Chains']}>
            {s.sweeps.map((w, i) => (
              <tr key={`${w.at}-${i}`}>
                <td>
                  <Time at={w.at} />
                </td>
                <td>{w.help_requests}</td>
                <td>{w.runs}</td>
                <td>{w.proposals}</td>
                <td>{w.refused_lines}</td>
                <td>{w.event_files}</td>
                <td>{w.lapsed_learnings}</td>
                <td>{w.chains}</td>
              </tr>
            ))}
          </DataTable>
        )}
      </section>
    </div>
  );
}
