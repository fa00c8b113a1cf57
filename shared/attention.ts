/**
 * Getting the operator's attention for fatal help requests (docs/window.md#needs-you), in words and
 * in a number, for both hosts: the browser host's web notification and tab title
 * (renderer/components/Attention.tsx) and the desktop app's native notification and dock badge
 * (electron/main.ts). It lives here, once, because the two copies it replaces had drifted: one cut
 * the question at 200 characters and the other at 180 with an ellipsis, and one counted fatal
 * requests only while open, the other every fatal row it was handed.
 *
 * This file runs anywhere: it imports nothing from Node, Electron or the DOM.
 */
import type { HelpRequest } from './domain.js';

export const APP_TITLE = 'Layover Desk';

/**
 * Most characters of a notification's body: about what the desktop and browser notifications show
 * before they cut the text themselves, without saying they did.
 */
export const NOTIFICATION_BODY_CHARS = 180;

/** The sign that a notification's question was cut, so a reader knows there is more in the window. */
const CUT = '…';

export interface AttentionNotification {
  title: string;
  body: string;
}

/**
 * A new fatal request as a notification: who needs you, and the start of the question — at most
 * {@link NOTIFICATION_BODY_CHARS} characters, ending in "…" when it was cut.
 */
export function fatalNotification(request: Pick<HelpRequest, 'agent' | 'question'>): AttentionNotification {
  const { question } = request;
  const body = question.length > NOTIFICATION_BODY_CHARS ? `${question.slice(0, NOTIFICATION_BODY_CHARS - CUT.length)}${CUT}` : question;
  return { title: `${request.agent} needs you`, body };
}

/**
 * How many fatal requests wait for the operator: fatal and still open. A request answered or
 * resolved no longer needs anyone, even while the window keeps it in view, so it is not counted.
 * This is the number the title and the dock badge show.
 */
export function openFatalCount(rows: readonly Pick<HelpRequest, 'fatal' | 'state'>[]): number {
  return rows.filter((r) => r.fatal && r.state === 'open').length;
}

/** The window's title: "(3) Layover Desk" while three fatal requests wait, so a background tab still says so. */
export function attentionTitle(openFatal: number): string {
  return openFatal > 0 ? `(${openFatal}) ${APP_TITLE}` : APP_TITLE;
}
