import { useId, useState } from 'react';
import type { HelpRequest } from '../../shared/domain.js';
import type { FlagValue } from '../../shared/flags.js';
import { formatFlags } from '../lib/format.js';
import { matchShortcut } from '../lib/shortcuts.js';
import { useSlice, useStores } from '../state/context.js';
import { EMPTY_DRAFT, parsedFlagChanges, replyProblem, type Draft, type FlagChange } from '../state/help.js';
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
        {request.flags_changed && <FlagsChanged request={request} />}
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

/** A flag value as it is sent: a text in quotes, so `"1.10"` and `1.1` or `"true"` and `true` differ on screen. */
function flagValue(value: FlagValue | null | undefined): string {
  return value === null || value === undefined ? 'not set' : JSON.stringify(value);
}

/** One flag change: its inherited value and the new one (`undefined` while it is not known here). */
interface FlagDiffLine {
  key: string;
  before: FlagValue | null | undefined;
  after: FlagValue | null | undefined;
}

/** The before → after lines of flag changes: `publish: false → true`, or `publish: was false`. */
function FlagDiff({ changes, label }: { changes: FlagDiffLine[]; label: string }) {
  return (
    <ul className="flag-diff" aria-label={label}>
      {changes.map((c) => (
        <li key={c.key} className="mono" data-flag={c.key}>
          {c.key}: {c.after === undefined ? `was ${flagValue(c.before)}` : `${flagValue(c.before)} → ${flagValue(c.after)}`}
        </li>
      ))}
    </ul>
  );
}

/**
 * The request's record of flags its reply changed on purpose: each key with its inherited value
 * and, once the new chain is in view, the value it was given (docs/rules.md#help-requests-and-replies).
 */
function FlagsChanged({ request }: { request: HelpRequest }) {
  const { help } = useStores();
  const chain = useSlice(help, (s) => (s.detail?.request.id === request.id ? s.detail.continued : null));
  const changes = Object.entries(request.flags_changed ?? {}).map(([key, before]) => ({
    key,
    before,
    after: chain && chain.chain === request.continued_as ? (chain.flags?.[key] ?? null) : undefined,
  }));
  return (
    <>
      <p>Flags changed on purpose with this reply:</p>
      <FlagDiff changes={changes} label="Flags changed with the reply" />
    </>
  );
}

/**
 * The one control that changes an inherited flag (docs/rules.md#help-requests-and-replies): a
 * person adds a change, names the flag and its new value, and sees the before → after diff
 * before sending. Nothing else in the form touches the flags, so a reply that never used it
 * sends no change at all.
 */
function FlagChanges({ request, draft, set }: { request: HelpRequest; draft: Draft; set: (patch: Partial<Draft>) => void }) {
  const uid = useId();
  const inherited = request.flags ?? {};
  const parsed = parsedFlagChanges(draft);
  const update = (index: number, patch: Partial<FlagChange>) =>
    set({ flagChanges: draft.flagChanges.map((c, i) => (i === index ? { ...c, ...patch } : c)) });
  const diff = Object.entries(parsed.flags).map(([key, after]) => ({ key, before: Object.hasOwn(inherited, key) ? inherited[key] : null, after }));
  return (
    <div className="flag-changes">
      <datalist id={`${uid}-keys`}>
        {Object.keys(inherited).map((key) => (
          <option key={key} value={key} />
        ))}
      </datalist>
      {draft.flagChanges.map((change, i) => (
        <fieldset key={i} className="flag-change">
          <legend>Flag change {i + 1}</legend>
          <label htmlFor={`${uid}-key-${i}`}>Flag</label>
          <input
            id={`${uid}-key-${i}`}
            className="mono"
            list={`${uid}-keys`}
            value={change.key}
            onChange={(e) => update(i, { key: e.target.value })}
            autoComplete="off"
            spellCheck={false}
          />
          <label htmlFor={`${uid}-value-${i}`}>New value</label>
          <input
            id={`${uid}-value-${i}`}
            className="mono"
            value={change.value}
            onChange={(e) => update(i, { value: e.target.value })}
            autoComplete="off"
            spellCheck={false}
          />
          <button type="button" onClick={() => set({ flagChanges: draft.flagChanges.filter((_, j) => j !== i) })}>
            Keep this flag as inherited
          </button>
        </fieldset>
      ))}
      <button type="button" onClick={() => set({ flagChanges: [...draft.flagChanges, { key: '', value: '' }] })}>
        Change a flag…
      </button>
      {diff.length > 0 && (
        <div className="flag-diff-box" role="status">
          <p>The new chain's flags will differ from what it inherits:</p>
          <FlagDiff changes={diff} label="Flag changes to send" />
        </div>
      )}
    </div>
  );
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
  const set = (patch: Partial<Draft>) => help.getState().setDraft(request.id, patch);

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
        {!unknownFlags && <FlagChanges request={request} draft={draft} set={set} />}
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
