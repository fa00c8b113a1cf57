import { useEffect } from 'react';
import { isTyping } from '../lib/shortcuts.js';
import { useStores } from '../state/context.js';
import { VIEWS } from '../state/nav.js';
import type { Stores } from '../state/stores.js';
import { keepSelected } from './learnings/actions.js';
import { SEARCH_ID } from './learnings/FilterBar.js';

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

/** Handles one key press; returns true when it was a shortcut. */
export function handleShortcut(stores: Stores, event: KeyboardEvent): boolean {
  if (event.ctrlKey || event.metaKey || event.altKey) return false;
  if (document.querySelector('[aria-modal="true"]')) return false; // dialogs handle their own keys
  if (isTyping(event.target)) return false;
  const view = stores.nav.getState().route.view;
  const learnings = stores.learnings.getState();
  const help = stores.help.getState();
  const key = event.key;

  if (key === '?') {
    stores.ui.getState().setSheet(true);
    return true;
  }
  if (key === '/') {
    if (view !== 'learnings') stores.nav.getState().go('learnings');
    focusSearch();
    return true;
  }
  const index = ['1', '2', '3', '4'].indexOf(key);
  if (index >= 0) {
    stores.nav.getState().go(VIEWS[index]!);
    return true;
  }
  if (key === 'Escape') {
    if (view === 'learnings') {
      if (learnings.detailId) void learnings.openDetail(null);
      else learnings.clearSelection();
      return true;
    }
    return false;
  }
  if (view === 'needs') {
    if (key === 'j' || key === 'k') {
      help.move(key === 'j' ? 1 : -1);
      return true;
    }
    if (key === 'Enter' && !isControl(event.target)) {
      const answer = document.querySelector<HTMLTextAreaElement>('.reply textarea[required]');
      answer?.focus();
      return answer !== null;
    }
    return false;
  }
  if (view !== 'learnings') return false;
  switch (key) {
    case 'j':
    case 'k':
      learnings.moveCursor(key === 'j' ? 1 : -1);
      return true;
    case 'x':
      learnings.toggle(learnings.cursor);
      return true;
    case 'X':
      void learnings.selectRange(learnings.cursor);
      return true;
    case 'r':
      if (learnings.selectionCount() === 0) learnings.toggle(learnings.cursor);
      if (stores.learnings.getState().selectionCount() > 0) stores.ui.getState().openDialog('reject');
      return true;
    case 'e':
      if (learnings.selectionCount() === 0) learnings.toggle(learnings.cursor);
      void keepSelected(stores);
      return true;
    case 'Enter': {
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
