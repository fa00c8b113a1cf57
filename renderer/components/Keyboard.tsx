import { useEffect } from 'react';
import { isTyping, matchShortcut } from '../lib/shortcuts.js';
import { useStores } from '../state/context.js';
import { VIEWS } from '../state/nav.js';
import type { Stores } from '../state/stores.js';
import { keepSelected, undoToast } from './learnings/actions.js';
import { SEARCH_ID } from './learnings/FilterBar.js';
import { handleWorthShortcut } from './worth/actions.js';

function isControl(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && target.closest('button, a[href], summary, [role="button"]') !== null;
}

function focusSearch(tries = 10): void {
  const input = document.getElementById(SEARCH_ID);
  if (input) {
    input.focus();
    return;
  }
  if (tries > 0) setTimeout(() => focusSearch(tries - 1), 30);
}

/**
 * Marks the element focus returns to when a text field is left with Esc: the list the operator
 * works in (the current request, the learnings list). Without one, keys typed after Esc would
 * land on the page body, which works too, but the operator loses their place.
 */
export const FOCUS_HOME = 'data-focus-home';

/** Focus goes back to the dialog holding the field, else to the view's marked list, else to the main pane. */
function leaveField(field: HTMLElement): void {
  const home =
    field.closest<HTMLElement>('[role="dialog"]') ??
    document.querySelector<HTMLElement>(`[${FOCUS_HOME}]`) ??
    document.getElementById('main');
  if (home) home.focus();
  else field.blur();
}

/**
 * Esc in a text field leaves it, and does nothing else: the next key is a shortcut again, so
 * keyboard triage never gets stuck typing "j2" into an answer. Heard before the field's own
 * handlers and the dialog's, so the first Esc never closes anything; the second one does.
 */
export function handleFieldKey(event: KeyboardEvent): boolean {
  if (event.isComposing || !isTyping(event.target)) return false;
  if (matchShortcut(event, 'field')?.id !== 'leave-field') return false;
  leaveField(event.target as HTMLElement);
  return true;
}

/** Handles one key press; returns true when it was a shortcut. Only keys of `SHORTCUTS` are heard. */
export function handleShortcut(stores: Stores, event: KeyboardEvent): boolean {
  const shortcut = matchShortcut(event, 'window');
  if (!shortcut) return false;
  if (document.querySelector('[aria-modal="true"]')) return false; // dialogs handle their own keys
  if (isTyping(event.target)) return false;
  const view = stores.nav.getState().route.view;
  const learnings = stores.learnings.getState();
  const help = stores.help.getState();

  switch (shortcut.id) {
    case 'help':
      stores.ui.getState().setSheet(true);
      return true;
    case 'search':
      if (view !== 'learnings') stores.nav.getState().go('learnings');
      focusSearch();
      return true;
    case 'views': {
      const target = VIEWS[shortcut.match.indexOf(event.key)];
      if (!target) return false;
      stores.nav.getState().go(target);
      return true;
    }
    case 'undo':
      return undoToast(stores);
    case 'escape':
      if (view !== 'learnings') return false;
      if (learnings.detailId) void learnings.openDetail(null);
      else learnings.clearSelection();
      return true;
    default:
      break;
  }
  if (view === 'needs') {
    if (handleWorthShortcut(stores, shortcut.id)) return true;
    if (shortcut.id === 'down' || shortcut.id === 'up') {
      help.move(shortcut.id === 'down' ? 1 : -1);
      return true;
    }
    // On a request of the list, Enter goes to its answer too (the list item holds focus after Esc).
    const onRequest = event.target instanceof HTMLElement && event.target.closest(`[${FOCUS_HOME}]`) !== null;
    if (shortcut.id === 'open' && (onRequest || !isControl(event.target))) {
      const answer = document.querySelector<HTMLTextAreaElement>('.reply textarea[required]');
      answer?.focus();
      return answer !== null;
    }
    return false;
  }
  if (view !== 'learnings') return false;
  switch (shortcut.id) {
    case 'down':
    case 'up':
      learnings.moveCursor(shortcut.id === 'down' ? 1 : -1);
      return true;
    case 'toggle':
      learnings.toggle(learnings.cursor);
      return true;
    case 'range':
      void learnings.selectRange(learnings.cursor);
      return true;
    case 'reject':
      if (learnings.aimAtCursor()) stores.ui.getState().openDialog('reject');
      return true;
    case 'keep':
      if (learnings.aimAtCursor()) void keepSelected(stores);
      return true;
    case 'open': {
      if (isControl(event.target)) return false;
      const row = learnings.rowAt(learnings.cursor);
      if (row) void learnings.openDetail(row.id);
      return row !== undefined;
    }
    default:
      return false;
  }
}

/** The window's keyboard shortcuts; never while the operator types in a field. */
export function Keyboard() {
  const stores = useStores();
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented) return;
      if (handleShortcut(stores, event)) event.preventDefault();
    }
    function onFieldKey(event: KeyboardEvent) {
      if (event.defaultPrevented || !handleFieldKey(event)) return;
      event.preventDefault();
      event.stopPropagation();
    }
    window.addEventListener('keydown', onFieldKey, true);
    window.addEventListener('keydown', onKeyDown);
    return () => {
      window.removeEventListener('keydown', onFieldKey, true);
      window.removeEventListener('keydown', onKeyDown);
    };
  }, [stores]);
  return null;
}
