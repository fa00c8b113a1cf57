import { useId, useState } from 'react';
import type { HelpRequest } from '../../shared/domain.js';
import { formatFlags } from '../lib/format.js';
import { matchShortcut } from '../lib/shortcuts.js';
import { useSlice, useStores } from '../state/context.js';
import { EMPTY_DRAFT, replyProblem } from '../state/help.js';
import { href } from '../state/nav.js';
import { useActor } from './ActingAs.js';
import { ConfirmDialog } from './ConfirmDialog.js';
import { Time } from './Time.js';

/** What happened to a request that is no longer open: who, when, and the chain it started. */
export function Outcome({ request }: { request: HelpRequest }) {
  if (request.state === 'answered') {
    return (
      <div className="outcome" role="status">
        <p>
          Answered by <strong>{request.responder ?? 'someone'}</strong> <Time at={request.answered_at} />.
          {request.continued_as && (
            <>
              {' '}
              New chain: <a href={href('runs', { chain: request.continued_as })} className="mono">{request.continued_as}</a>
            </>
          )}
        </p>
        {request.answer && <blockquote className="prewrap">{request.answer}</blockquote>}
      </div>
    );
  }
  if (request.state === 'resolved') {
    return (
      <div className="outcome" role="status">
        <p>
          Resolved without an answer by <strong>{request.responder ?? 'someone'}</strong> <Time at={request.answered_at} />.
        </p>
      </div>
    );
  }
  return null;
}

/** The reply form: answer, who answers, what the new chain inherits, Send or Resolve. */
export function ReplyForm({ request }: { request: HelpRequest }) {
  const { help, desk } = useStores();
  const uid = useId();
  const stored = useSlice(help, (s) => s.drafts[request.id]);
  const error = useSlice(help, (s) => s.errors[request.id]);
  const pending = useSlice(help, (s) => s.pending[request.id]);
  const name = useActor();
  const [confirmResolve, setConfirmResolve] = useState(false);

  const draft = stored ?? EMPTY_DRAFT;
  const problem = replyProblem(request, draft);
  const unknownFlags = request.flags === null;
  const set = (patch: Parameters<ReturnType<typeof help.getState>['setDraft']>[1]) =>
    help.getState().setDraft(request.id, patch);

  function send(event?: React.FormEvent) {
    event?.preventDefault();
    void help.getState().reply(request.id, desk.getState().actor());
  }

  return (
    <form className="reply" onSubmit={send} aria-label={`Reply to ${request.agent}`}>
      <h3>Reply</h3>
      <div className="inherits" aria-label="What the new chain inherits">
        <p className="muted">A reply starts a new chain of {request.agent} with a fresh budget. It inherits:</p>
        {unknownFlags ? (
          <p className="warn-text" id={`${uid}-unknown`}>
            The asking run's start was never recorded, so its workflow and flags are unknown. State them below: the Desk will
            not guess (a default could silently downgrade what the work was allowed to do).
          </p>
        ) : (
          <dl className="fields">
            <dt>Workflow</dt>
            <dd className="mono">{request.workflow}</dd>
            <dt>Flags</dt>
            <dd className="mono">{formatFlags(request.flags)}</dd>
            <dt>Routes</dt>
            <dd className="mono">{request.routes && request.routes.length > 0 ? request.routes.join(', ') : 'none'}</dd>
          </dl>
        )}
      </div>
      {unknownFlags && (
        <div className="unknown-flags">
          <label htmlFor={`${uid}-workflow`}>Workflow (required)</label>
          <input
            id={`${uid}-workflow`}
            value={draft.workflow}
            onChange={(e) => set({ workflow: e.target.value })}
            autoComplete="off"
            spellCheck={false}
          />
          <label htmlFor={`${uid}-flags`}>Flags, one key=value per line (required unless the workflow takes none)</label>
          <textarea
            id={`${uid}-flags`}
            rows={3}
            className="mono"
            value={draft.flags}
            onChange={(e) => set({ flags: e.target.value })}
            placeholder="publish=false"
            spellCheck={false}
          />
          <label className="check-label" htmlFor={`${uid}-noflags`}>
            <input
              id={`${uid}-noflags`}
              type="checkbox"
              checked={draft.noFlags}
              onChange={(e) => set({ noFlags: e.target.checked })}
            />
            This workflow takes no flags (the new chain runs with an empty flag set)
          </label>
          <label htmlFor={`${uid}-routes`}>Routes, comma separated (optional)</label>
          <input
            id={`${uid}-routes`}
            value={draft.routes}
            onChange={(e) => set({ routes: e.target.value })}
            autoComplete="off"
            spellCheck={false}
          />
        </div>
      )}
      <label htmlFor={`${uid}-answer`}>Answer (required)</label>
      <textarea
        id={`${uid}-answer`}
        rows={5}
        value={draft.answer}
        onChange={(e) => set({ answer: e.target.value })}
        onKeyDown={(e) => {
          if (matchShortcut(e, 'answer')?.id === 'send') send(e);
        }}
        required
        aria-keyshortcuts="Control+Enter Meta+Enter"
        aria-describedby={problem ? `${uid}-problem` : undefined}
      />
      <p className="muted">
        Replying as <strong>{name}</strong>{' '}
        <button type="button" className="link" onClick={() => desk.getState().setEditingActor(true)}>
          change
        </button>
      </p>
      {problem && (
        <p id={`${uid}-problem`} className="hint">
          {problem}
        </p>
      )}
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button
          type="submit"
          className="primary"
          disabled={problem !== null || pending !== undefined}
          aria-describedby={problem ? `${uid}-problem` : undefined}
        >
          {pending === 'reply' ? 'Sending…' : 'Send reply'}
        </button>
        <button type="button" onClick={() => setConfirmResolve(true)} disabled={pending !== undefined}>
          Resolve without answer…
        </button>
      </div>
      {confirmResolve && (
        <ConfirmDialog
          title={`Resolve without an answer as ${name}?`}
          confirm="Resolve"
          onCancel={() => setConfirmResolve(false)}
          onConfirm={() => {
            setConfirmResolve(false);
            void help.getState().resolve(request.id, desk.getState().actor());
          }}
        >
          <p>
            The request of {request.agent} is closed and nothing more is needed: no new chain starts
            {request.awaiting_human ? ', and the waiting chain is finished' : ''}.
          </p>
        </ConfirmDialog>
      )}
    </form>
  );
}
