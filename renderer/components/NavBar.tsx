import { useSlice, useStores } from '../state/context.js';
import { VIEWS, VIEW_TITLES, href } from '../state/nav.js';
import { ActingAs } from './ActingAs.js';
import { NotifyToggle } from './Attention.js';
import { OpenFactory } from './OpenFactory.js';

export function NavBar() {
  const { nav, help, ui } = useStores();
  const view = useSlice(nav, (s) => s.route.view);
  const open = useSlice(help, (s) => s.total);
  const waiting = useSlice(help, (s) => s.rows.filter((r) => r.fatal && r.awaiting_human).length);

  return (
    <header className="topbar">
      <span className="brand">Layover Desk</span>
      <nav aria-label="Views">
        <ul>
          {VIEWS.map((v, i) => (
            <li key={v}>
              <a href={href(v)} aria-current={view === v ? 'page' : undefined} aria-keyshortcuts={String(i + 1)}>
                {VIEW_TITLES[v]}
                {v === 'needs' && open > 0 && (
                  <span className={waiting > 0 ? 'count count-urgent' : 'count'} aria-label={`${open} open, ${waiting} waiting`}>
                    {open}
                  </span>
                )}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <span className="spacer-flex" />
      <NotifyToggle />
      <ActingAs />
      <OpenFactory />
      <button type="button" onClick={() => ui.getState().setSheet(true)} aria-keyshortcuts="?">
        Shortcuts <kbd>?</kbd>
      </button>
    </header>
  );
}
