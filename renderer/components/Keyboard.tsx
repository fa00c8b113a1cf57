import { useEffect } from 'react';
import { isTyping, matchShortcut } from '../lib/shortcuts.js';
import { useStores } from '../state/context.js';
import { VIEWS } from '../state/nav.js';
import type { Stores } from '../state/stores.js';
import { keepSelected } from './learnings/actions.js';
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
    if (shortcut.id === 'open' && !isControl(event.target)) {
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
      if (learnings.selectionCount() === 0) learnings.toggle(learnings.cursor);
      if (stores.learnings.getState().selectionCount() > 0) stores.ui.getState().openDialog('reject');
      return true;
    case 'keep':
      if (learnings.selectionCount() === 0) learnings.toggle(learnings.cursor);
      void keepSelected(stores);
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
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [stores]);
  return null;
}
