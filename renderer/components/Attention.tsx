/**
 * Getting the operator's attention for fatal requests from outside the window's views
 * (docs/window.md#needs-you): the count in the tab or window title, in both hosts, and in the
 * browser host web notifications for new fatal requests, which the operator turns on with a click
 * (the Electron app raises native ones from its main process, and denies the page's permission).
 */
import { useEffect, useState } from 'react';
import { attentionTitle, fatalNotification, openFatalCount } from '../../shared/attention.js';
import type { HelpRequest } from '../../shared/domain.js';
import { useSlice, useStores } from '../state/context.js';
import type { Stores } from '../state/stores.js';

/** Whether the operator asked for notifications in this browser (renderer local storage). */
export const NOTIFY_KEY = 'layover.notify';

/** "(3) Layover Desk" while three fatal requests are open, so a background tab still says so. */
export function useAttentionTitle(): void {
  const waiting = useSlice(useStores().help, (s) => openFatalCount(s.rows));
  useEffect(() => {
    document.title = attentionTitle(waiting);
  }, [waiting]);
}

function canNotify(): boolean {
  return typeof Notification !== 'undefined';
}

function optedIn(): boolean {
  try {
    return window.localStorage.getItem(NOTIFY_KEY) === 'on';
  } catch {
    return false;
  }
}

function rememberOptIn(on: boolean): void {
  try {
    if (on) window.localStorage.setItem(NOTIFY_KEY, 'on');
    else window.localStorage.removeItem(NOTIFY_KEY);
  } catch {
    // Storage unavailable: the choice lasts as long as the window.
  }
}

/** Raises a web notification for a new fatal request, when the operator turned them on here. */
export function notifyFatal(stores: Stores, request: HelpRequest): void {
  if (stores.desk.getState().info?.host !== 'browser' || !request.fatal) return;
  if (!canNotify() || Notification.permission !== 'granted' || !optedIn()) return;
  const { title, body } = fatalNotification(request);
  new Notification(title, { body, tag: request.id });
}

/**
 * "Notify me of new fatal requests" (browser host only). The browser's permission is asked only
 * when this is ticked, never on load: a prompt nobody asked for is one people learn to refuse.
 */
export function NotifyToggle() {
  const host = useSlice(useStores().desk, (s) => s.info?.host);
  const [on, setOn] = useState(() => canNotify() && Notification.permission === 'granted' && optedIn());
  const [refused, setRefused] = useState(false);
  if (host !== 'browser' || !canNotify()) return null;

  async function toggle(checked: boolean) {
    if (!checked) {
      rememberOptIn(false);
      setOn(false);
      return;
    }
    const granted = (await Notification.requestPermission()) === 'granted';
    rememberOptIn(granted);
    setOn(granted);
    setRefused(!granted);
  }

  return (
    <label className="check-label notify-toggle" title={refused ? 'The browser refused: allow notifications for this page in its site settings.' : undefined}>
      <input type="checkbox" checked={on} onChange={(e) => void toggle(e.target.checked)} />
      Notify me of new fatal requests
      {refused && <span className="warn-text"> (refused by the browser)</span>}
    </label>
  );
}
