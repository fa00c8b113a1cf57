import { useState } from 'react';
import { useSlice, useStores } from '../state/context.js';
import { Dialog } from './Dialog.js';

/** "Open Factory…": the native folder dialog in Electron, a path field in the browser host. */
export function OpenFactory() {
  const { desk } = useStores();
  const host = useSlice(desk, (s) => s.info?.host);
  const busy = useSlice(desk, (s) => s.busy);
  const current = useSlice(desk, (s) => s.info?.factory ?? '');
  const confirmCreate = useSlice(desk, (s) => s.confirmCreate);
  const [open, setOpen] = useState(false);
  const [path, setPath] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!path.trim()) {
      setError('Enter the folder of a factory.');
      return;
    }
    const ok = await desk.getState().openFactory(path.trim());
    if (ok || desk.getState().confirmCreate) setOpen(false);
    else setError(desk.getState().error);
  }

  return (
    <>
      <button
        type="button"
        disabled={busy}
        onClick={() => {
          if (host === 'electron') void desk.getState().openFactory();
          else {
            setPath(current);
            setError(null);
            setOpen(true);
          }
        }}
      >
        Open Factory…
      </button>
      {open && (
        <Dialog title="Open a factory" onClose={() => setOpen(false)} initialFocus="input">
          <form onSubmit={(e) => void submit(e)}>
            <label htmlFor="factory-path">Factory folder (absolute path)</label>
            <input
              id="factory-path"
              className="wide-input mono"
              value={path}
              onChange={(e) => setPath(e.target.value)}
              autoComplete="off"
              spellCheck={false}
            />
            {error && (
              <p role="alert" className="error-text">
                {error}
              </p>
            )}
            <div className="dialog-actions">
              <button type="button" onClick={() => setOpen(false)}>
                Cancel
              </button>
              <button type="submit" className="primary" disabled={busy}>
                Open
              </button>
            </div>
          </form>
        </Dialog>
      )}
      {confirmCreate && (
        <Dialog title="Make a new factory?" onClose={() => desk.getState().cancelCreate()}>
          <p>{confirmCreate.question}</p>
          <div className="dialog-actions">
            <button type="button" onClick={() => desk.getState().cancelCreate()}>
              Cancel
            </button>
            <button
              type="button"
              className="primary"
              disabled={busy}
              onClick={() => void desk.getState().openFactory(confirmCreate.path, true)}
            >
              Make it a factory
            </button>
          </div>
        </Dialog>
      )}
    </>
  );
}
