import { useEffect, useRef } from 'react';
import type { HelpRequest } from '../../shared/domain.js';
import { FOCUS_HOME } from '../components/Keyboard.js';
import { ReplyForm, Outcome } from '../components/ReplyForm.js';
import { WorthALook } from '../components/worth/WorthALook.js';
import { Time } from '../components/Time.js';
import { useSlice, useStores } from '../state/context.js';
import { href } from '../state/nav.js';
import { plural } from '../lib/format.js';

function RequestItem({ request, current, onPick }: { request: HelpRequest; current: boolean; onPick: () => void }) {
  const ref = useRef<HTMLButtonElement>(null);
  // Focus follows the current request while it is in the list (j/k), and comes back to it when
  // the form it was typed in went away (a reply sent, a request resolved): keys then keep working.
  useEffect(() => {
    const active = document.activeElement;
    const adrift = active === null || active === document.body || active.closest('.request-item') !== null;
    if (current && adrift) ref.current?.focus();
  }, [current, request.state]);
  return (
    <li>
      <button
        ref={ref}
        type="button"
        {...{ [FOCUS_HOME]: current ? '' : undefined }}
        className={`request-item${current ? ' current' : ''}`}
        aria-current={current ? 'true' : undefined}
        onClick={onPick}
        data-request={request.id}
      >
        <span className="request-head">
          {request.fatal && <span className="badge badge-fatal">fatal</span>}
          {request.awaiting_human && <span className="badge badge-awaiting">chain waiting</span>}
          {request.state !== 'open' && <span className="badge">{request.state}</span>}
          <strong>{request.agent}</strong>
          {request.category && <span className="muted">{request.category}</span>}
          <span className="muted request-time">
            <Time at={request.at} relative />
          </span>
        </span>
        <span className="request-question">{request.question}</span>
        <span className="request-origin muted">
          run <span className="mono">{request.run}</span> · chain <span className="mono">{request.chain}</span>
        </span>
      </button>
    </li>
  );
}

/** The request `selectedId` names, given by the view, which holds the selection already. */
function RequestDetail({ selectedId }: { selectedId: string | null }) {
  const { help } = useStores();
  const detail = useSlice(help, (s) => s.detail);
  const detailError = useSlice(help, (s) => s.detailError);
  const handled = useSlice(help, (s) => (selectedId ? s.handled[selectedId] : undefined));

  if (!selectedId) return <p className="empty">Pick a request to read and answer it.</p>;
  if (detailError)
    return (
      <p role="alert" className="error-text">
        {detailError}
      </p>
    );
  if (!detail || detail.request.id !== selectedId) return <p className="muted">Loading…</p>;
  // The freshest of the two: the detail as re-read, or what the reply returned.
  const request = detail.request.state === 'open' && handled ? handled : detail.request;

  return (
    <article className="request-detail" aria-labelledby="request-title">
      <h2 id="request-title">
        {request.agent} asks{request.category ? ` (${request.category})` : ''}
      </h2>
      <p className="question prewrap">{request.question}</p>
      <dl className="fields">
        <dt>Asked</dt>
        <dd>
          <Time at={request.at} />
        </dd>
        <dt>Fatal</dt>
        <dd>{request.fatal ? 'yes — the run stopped to ask' : 'no'}</dd>
        <dt>Run</dt>
        <dd>
          <a className="mono" href={href('runs', { run: request.run })}>
            {request.run}
          </a>
        </dd>
        <dt>Chain</dt>
        <dd>
          <a className="mono" href={href('runs', { chain: request.chain })}>
            {request.chain}
          </a>
          {detail.chain && <span className="muted"> · {detail.chain.state.replace('_', ' ')}</span>}
        </dd>
        {detail.continued && (
          <>
            <dt>Continued as</dt>
            <dd>
              <a className="mono" href={href('runs', { chain: detail.continued.chain })}>
                {detail.continued.chain}
              </a>
              <span className="muted"> · {detail.continued.state.replace('_', ' ')}</span>
            </dd>
          </>
        )}
        <dt>Request id</dt>
        <dd className="mono">{request.id}</dd>
      </dl>
      {request.state === 'open' ? <ReplyForm key={request.id} request={request} /> : <Outcome request={request} />}
    </article>
  );
}

/** The start view: what needs a person, fatal requests of waiting chains first. */
export function NeedsYou({ focus }: { focus?: string | undefined }) {
  const { help } = useStores();
  const rows = useSlice(help, (s) => s.rows);
  const handled = useSlice(help, (s) => s.handled);
  const selectedId = useSlice(help, (s) => s.selectedId);
  const loaded = useSlice(help, (s) => s.loaded);
  const loadError = useSlice(help, (s) => s.loadError);

  useEffect(() => {
    if (focus) void help.getState().select(focus);
  }, [focus, help]);

  useEffect(() => {
    if (!focus && !help.getState().selectedId && rows[0]) void help.getState().select(rows[0].id);
  }, [focus, rows, help]);

  const openIds = new Set(rows.map((r) => r.id));
  const done = Object.values(handled).filter((r) => !openIds.has(r.id));
  const waiting = rows.filter((r) => r.fatal && r.awaiting_human);
  const other = rows.filter((r) => !(r.fatal && r.awaiting_human));
  const pick = (id: string) => void help.getState().select(id);

  return (
    <div className="split">
      <section className="pane pane-list" aria-labelledby="needs-title">
        <h1 id="needs-title">Needs you</h1>
        {loadError && (
          <p role="alert" className="error-text">
            {loadError}
          </p>
        )}
        {loaded && rows.length === 0 && done.length === 0 && <p className="empty">Nothing needs you. Every request is handled.</p>}
        {waiting.length > 0 && (
          <>
            <h2 className="group-title">Chains waiting for you ({waiting.length})</h2>
            <ul className="request-list">
              {waiting.map((r) => (
                <RequestItem key={r.id} request={r} current={r.id === selectedId} onPick={() => pick(r.id)} />
              ))}
            </ul>
          </>
        )}
        {other.length > 0 && (
          <>
            <h2 className="group-title">Other open requests ({other.length})</h2>
            <ul className="request-list">
              {other.map((r) => (
                <RequestItem key={r.id} request={r} current={r.id === selectedId} onPick={() => pick(r.id)} />
              ))}
            </ul>
          </>
        )}
        {done.length > 0 && (
          <>
            <h2 className="group-title">Handled just now ({plural(done.length, 'request')})</h2>
            <ul className="request-list">
              {done.map((r) => (
                <RequestItem key={r.id} request={r} current={r.id === selectedId} onPick={() => pick(r.id)} />
              ))}
            </ul>
          </>
        )}
        <WorthALook />
      </section>
      <section className="pane pane-detail" aria-label="Request">
        <RequestDetail selectedId={selectedId} />
      </section>
    </div>
  );
}
