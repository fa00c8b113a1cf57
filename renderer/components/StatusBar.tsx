import { useState } from 'react';
import type { WatcherStatus } from '../../shared/domain.js';
import { percent } from '../lib/format.js';
import { sweptPhrase } from '../../shared/sweep.js';
import { useSlice, useStores } from '../state/context.js';
import { ConfirmDialog } from './ConfirmDialog.js';
import { Time } from './Time.js';

function watcherText(w: WatcherStatus | null): string {
  if (!w) return 'connecting…';
  switch (w.state) {
    case 'catching_up': {
      const share = w.total_bytes > 0 ? ` ${percent(Math.min(1, w.done_bytes / w.total_bytes))}` : '';
      return `catching up${share}`;
    }
    case 'watching':
      return 'watching';
    case 'starting':
      return 'starting';
    case 'stopped':
      return 'stopped';
    case 'error':
      return `watcher error: ${w.error ?? 'unknown'}`;
  }
}

/** Factory, watcher, last event, settings and ledger health, last sweep: always in sight. */
export function StatusBar() {
  const { desk } = useStores();
  const info = useSlice(desk, (s) => s.info);
  const watcher = useSlice(desk, (s) => s.watcher);
  const error = useSlice(desk, (s) => s.error);
  const busy = useSlice(desk, (s) => s.busy);
  const [confirmRestore, setConfirmRestore] = useState(false);
  const sweep = info?.last_sweep ?? null;
  const problem = info?.ledger_problem ?? null;

  return (
    <footer className="statusbar" aria-label="Status">
      <span className="status-item status-factory" title={info?.factory}>
        Factory: <span className="mono">{info?.factory ?? '…'}</span>
      </span>
      <span className={`status-item watcher-${watcher?.state ?? 'none'}`}>
        Watcher: {watcherText(watcher)}
        {watcher?.state === 'catching_up' && watcher.total_bytes > 0 && (
          <progress
            className="catchup"
            max={watcher.total_bytes}
            value={watcher.done_bytes}
            aria-label="Catching up with the events files"
          />
        )}
      </span>
      <span className="status-item">
        Last event: <Time at={watcher?.last_event_at ?? null} relative />
      </span>
      {sweep && (
        <span className="status-item" title={`Sweep at ${sweep.at}`}>
          Last sweep: <Time at={sweep.at} relative /> — {sweptPhrase(sweep)}
        </span>
      )}
      {info?.factory_error && (
        <span className="status-item status-error" role="alert">
          Factory: {info.factory_error}
        </span>
      )}
      {info?.settings_error && (
        <span className="status-item status-error" role="alert">
          layover.toml refused: {info.settings_error} (the last good settings stay in use)
        </span>
      )}
      {info && info.settings_warnings.length > 0 && (
        <span className="status-item status-warn">layover.toml: {info.settings_warnings.join('; ')}</span>
      )}
      {problem && (
        <span className="status-item status-error" role="alert">
          Ledger problem: {problem.message}
          {problem.newest_backup && (
            <button type="button" onClick={() => setConfirmRestore(true)} disabled={busy}>
              Restore newest safety copy
            </button>
          )}
        </span>
      )}
      {error && (
        <span className="status-item status-error" role="alert">
          {error}
        </span>
      )}
      {confirmRestore && problem?.newest_backup && (
        <ConfirmDialog
          title="Restore the ledger from its newest safety copy?"
          confirm="Restore"
          onCancel={() => setConfirmRestore(false)}
          onConfirm={() => {
            setConfirmRestore(false);
            void desk.getState().restoreBackup(problem.newest_backup!);
          }}
        >
          <p>
            The ledger will be replaced by <span className="mono">{problem.newest_backup}</span>. Decisions made after that
            copy was taken are lost; events are read again from the factory.
          </p>
        </ConfirmDialog>
      )}
    </footer>
  );
}
