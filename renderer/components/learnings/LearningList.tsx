import { observeElementRect, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { count, runsLeft } from '../../lib/format.js';
import { useSlice, useStores } from '../../state/context.js';
import { PAGE_SIZE, type LearningSort } from '../../state/learnings.js';
import { FOCUS_HOME } from '../Keyboard.js';
import { Time } from '../Time.js';

export const ROW_HEIGHT = 36;

/** Like the library's own observer, but assumes a screenful where layout reports no height yet. */
const observeRect = (instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: { width: number; height: number }) => void) =>
  observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : { width: rect.width || 1000, height: 20 * ROW_HEIGHT }));

interface Column {
  label: string;
  sort?: LearningSort;
  className: string;
}

const COLUMNS: Column[] = [
  { label: 'State', sort: 'state', className: 'col-state' },
  { label: 'Impact', sort: 'impact', className: 'col-impact' },
  { label: 'Agent', sort: 'agent', className: 'col-agent' },
  { label: 'Learning', className: 'col-text' },
  { label: 'Runs left', sort: 'runs_left', className: 'col-runs' },
  { label: 'Rediscovered', sort: 'rediscoveries', className: 'col-redisc' },
  { label: 'Echoes', sort: 'echoes', className: 'col-num' },
  { label: 'Last proposed', sort: 'last_at', className: 'col-time' },
];

function Row({ index, confirmAfter }: { index: number; confirmAfter: number }) {
  const { learnings } = useStores();
  const row = useSlice(learnings, (s) => s.pages[Math.floor(index / PAGE_SIZE)]?.[index % PAGE_SIZE]);
  const selected = useSlice(learnings, (s) => (row ? s.allMatching || s.selected.has(row.id) : false));
  const cursor = useSlice(learnings, (s) => s.cursor === index);
  const open = useSlice(learnings, (s) => (row ? s.detailId === row.id : false));

  if (!row) {
    return (
      <tr className="row loading" aria-rowindex={index + 2}>
        <td colSpan={COLUMNS.length + 1} className="muted">
          Loading…
        </td>
      </tr>
    );
  }

  function onRowClick(event: React.MouseEvent) {
    const state = learnings.getState();
    if (event.shiftKey) {
      event.preventDefault();
      void state.selectRange(index);
      return;
    }
    state.setCursor(index);
    void state.openDetail(row!.id);
  }

  return (
    <tr
      className={`row${selected ? ' selected' : ''}${cursor ? ' cursor' : ''}${open ? ' open' : ''}`}
      aria-rowindex={index + 2}
      aria-selected={selected}
      data-index={index}
      data-id={row.id}
      onClick={onRowClick}
    >
      <td className="col-check">
        <input
          type="checkbox"
          checked={selected}
          aria-label={`Select: ${row.text.slice(0, 80)}`}
          onClick={(e) => {
            e.stopPropagation();
            const state = learnings.getState();
            if (e.shiftKey) void state.selectRange(index);
            else state.toggle(index);
          }}
          onChange={() => undefined}
        />
      </td>
      <td className="col-state">
        <span className={`state state-${row.state}`}>{row.state}</span>
      </td>
      <td className={`col-impact impact-${row.impact}`}>{row.impact}</td>
      <td className="col-agent">{row.agent}</td>
      <td className="col-text" title={row.text}>
        {row.text}
      </td>
      <td className="col-runs">{runsLeft(row)}</td>
      <td className="col-redisc">
        {row.rediscoveries} of {confirmAfter}
      </td>
      <td className="col-num">{row.echoes}</td>
      <td className="col-time">
        <Time at={row.last_at} relative />
      </td>
    </tr>
  );
}

/** The ledger's learnings as a virtual table: only the rows on screen exist in the page. */
export function LearningList() {
  const { learnings, desk } = useStores();
  const total = useSlice(learnings, (s) => s.total);
  const loaded = useSlice(learnings, (s) => s.loaded);
  const error = useSlice(learnings, (s) => s.error);
  const cursor = useSlice(learnings, (s) => s.cursor);
  const sort = useSlice(learnings, (s) => s.sort);
  const dir = useSlice(learnings, (s) => s.dir);
  const filter = useSlice(learnings, (s) => s.filter);
  const confirmAfter = useSlice(desk, (s) => s.info?.settings.learnings.confirm_after ?? 3);
  const scrollRef = useRef<HTMLDivElement>(null);

  const virtualizer = useVirtualizer<HTMLDivElement, Element>({
    count: total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    initialOffset: () => learnings.getState().scrollTop,
    observeElementRect: observeRect,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;

  useEffect(() => {
    learnings.getState().setVisible(first, Math.max(first, last));
  }, [first, last, learnings, total]);

  useEffect(() => {
    if (!loaded) void learnings.getState().reload();
  }, [loaded, learnings]);

  // A new filter starts at the top.
  const filterKey = JSON.stringify([filter, sort, dir]);
  const previousKey = useRef(filterKey);
  useEffect(() => {
    if (previousKey.current !== filterKey) {
      previousKey.current = filterKey;
      scrollRef.current?.scrollTo?.({ top: 0 });
    }
  }, [filterKey]);

  // The keyboard cursor stays in view.
  const previousCursor = useRef(cursor);
  useEffect(() => {
    if (previousCursor.current !== cursor && total > 0) virtualizer.scrollToIndex(cursor, { align: 'auto' });
    previousCursor.current = cursor;
  }, [cursor, total, virtualizer]);

  const padTop = items[0]?.start ?? 0;
  const padBottom = Math.max(0, virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0));

  return (
    <div
      className="list-scroll"
      ref={scrollRef}
      onScroll={(e) => learnings.setState({ scrollTop: e.currentTarget.scrollTop })}
      tabIndex={-1}
      {...{ [FOCUS_HOME]: '' }}
    >
      {error && (
        <p role="alert" className="error-text">
          {error}
        </p>
      )}
      <table className="learnings" aria-rowcount={total + 1} aria-label={`Learnings, ${count(total)} matching`}>
        <thead>
          <tr aria-rowindex={1}>
            <th scope="col" className="col-check">
              <span className="sr-only">Selected</span>
            </th>
            {COLUMNS.map((c) => (
              <th
                key={c.label}
                scope="col"
                className={c.className}
                aria-sort={c.sort && c.sort === sort ? (dir === 'asc' ? 'ascending' : 'descending') : undefined}
              >
                {c.sort ? (
                  <button type="button" className="sort" onClick={() => learnings.getState().setSort(c.sort!)}>
                    {c.label}
                    {c.sort === sort ? (dir === 'asc' ? ' ▲' : ' ▼') : ''}
                  </button>
                ) : (
                  c.label
                )}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {padTop > 0 && (
            <tr aria-hidden="true" className="spacer">
              <td colSpan={COLUMNS.length + 1} style={{ height: padTop }} />
            </tr>
          )}
          {items.map((item) => (
            <Row key={item.key} index={item.index} confirmAfter={confirmAfter} />
          ))}
          {padBottom > 0 && (
            <tr aria-hidden="true" className="spacer">
              <td colSpan={COLUMNS.length + 1} style={{ height: padBottom }} />
            </tr>
          )}
        </tbody>
      </table>
      {loaded && total === 0 && <p className="empty">No learnings match.</p>}
    </div>
  );
}
