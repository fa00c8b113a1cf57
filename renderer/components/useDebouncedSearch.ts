import { useEffect, useRef, useState } from 'react';

/** How long typing must pause before a search box's text is applied. */
const SEARCH_DEBOUNCE_MS = 250;

/**
 * A search box's text: shown as typed at once, applied (`apply`) only once the typing pauses, so
 * a search of ten keys asks the Desk once, not ten times. When the applied value changes from
 * elsewhere (Back, a pasted address) the box shows it.
 */
export function useDebouncedSearch(applied: string, apply: (value: string) => void): [string, (value: string) => void] {
  const [text, setText] = useState(applied);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef(apply);
  latest.current = apply;

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  useEffect(() => {
    setText((typed) => (typed.trim() === applied.trim() ? typed : applied));
  }, [applied]);

  function onChange(value: string) {
    setText(value);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => latest.current(value), SEARCH_DEBOUNCE_MS);
  }

  return [text, onChange];
}
