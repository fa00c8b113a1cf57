import { useState } from 'react';
import { useSlice, useStores } from '../state/context.js';
import { actorOf } from '../state/desk.js';
import { Dialog } from './Dialog.js';

/** The name every reply, resolve, reject, keep and undo is recorded as, in the current window. */
export function useActor(): string {
  return useSlice(useStores().desk, actorOf);
}

/**
 * "Acting as NAME" in the top bar: the one place the operator's name is shown and changed, so a
 * decision and a reply can never be recorded under two different names (docs/window.md#acting-as).
 */
export function ActingAs() {
  const { desk } = useStores();
  const actor = useActor();
  const editing = useSlice(desk, (s) => s.editingActor);

  return (
    <>
      <button type="button" className="acting-as" onClick={() => desk.getState().setEditingActor(true)} aria-haspopup="dialog">
        Acting as <strong>{actor}</strong>
      </button>
      {editing && <ActingAsDialog />}
    </>
  );
}

/** Changes the name, starting from the one in use; opened from the top bar or the reply form. */
function ActingAsDialog() {
  const { desk } = useStores();
  const osUser = useSlice(desk, (s) => s.info?.os_user ?? '');
  const current = useActor();
  const [name, setName] = useState(current);
  const close = () => desk.getState().setEditingActor(false);

  function submit(event: React.FormEvent) {
    event.preventDefault();
    desk.getState().setActingAs(name);
  }

  return (
    <Dialog title="Who are you acting as?" onClose={close} initialFocus="input">
      <form onSubmit={submit}>
        <label htmlFor="acting-as-name">Your name</label>
        <input
          id="acting-as-name"
          className="wide-input"
          value={name}
          onChange={(e) => setName(e.target.value)}
          autoComplete="name"
          maxLength={200}
          aria-describedby="acting-as-hint"
        />
        <p id="acting-as-hint" className="hint">
          Replies, resolves, rejections, keeps and undos from this window are recorded under this name, remembered on this
          computer. Leave it empty to act as this computer's account{osUser ? ` (${osUser})` : ''}.
        </p>
        <div className="dialog-actions">
          <button type="button" onClick={close}>
            Cancel
          </button>
          <button type="submit" className="primary">
            Act as {name.trim() || osUser || 'this account'}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
