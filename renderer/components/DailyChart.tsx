import { useId } from 'react';
import type { DayStats } from '../../shared/api.js';
import { plural } from '../lib/format.js';

const SERIES = [
  { key: 'proposals', label: 'Proposals', one: 'proposal', many: 'proposals', className: 'bar-proposals' },
  { key: 'lapses', label: 'Lapses', one: 'lapse', many: 'lapses', className: 'bar-lapses' },
  { key: 'help_requests', label: 'Help requests', one: 'help request', many: 'help requests', className: 'bar-help' },
] as const;

const WIDTH = 640;
const HEIGHT = 140;
const PAD = 20;
/** Room under the bars for the date axis: its ticks and one row of labels. */
const AXIS = 22;
/**
 * One date label a week, counted back from the last day (today), so the newest day is always
 * named. A label per day does not fit in 30 slots; the first and last day alone, as before, read
 * as two unrelated captions rather than an axis.
 */
const LABEL_EVERY_DAYS = 7;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** "Nov 9" for the UTC day "2026-11-09": the year is in each bar's full description. */
function shortDay(day: string): string {
  const [, month, date] = day.split('-');
  return `${MONTHS[Number(month) - 1] ?? month} ${Number(date)}`;
}

/** "2026-11-09 (UTC): 12 proposals, 1 lapse, 0 help requests": what a day's bars say, in words. */
function dayDescription(d: DayStats): string {
  return `${d.day} (UTC): ${SERIES.map((s) => plural(d[s.key], s.one, s.many)).join(', ')}`;
}

/**
 * Per-day proposals, lapses and help requests as grouped bars over one date axis. Each day is
 * its own labelled image (its title shows on hover, a screen reader reads its label), so a value
 * is readable without counting pixels; the numbers are also in a table beside it.
 */
export function DailyChart({ days }: { days: DayStats[] }) {
  const id = useId();
  const max = Math.max(1, ...days.flatMap((d) => [d.proposals, d.lapses, d.help_requests]));
  const slot = days.length > 0 ? (WIDTH - PAD) / days.length : WIDTH;
  const bar = Math.max(1, (slot - 2) / 3);
  const totals = SERIES.map((s) => plural(days.reduce((sum, d) => sum + d[s.key], 0), s.one, s.many)).join(', ');
  const label = `Per day over the last ${days.length} days: ${totals}. Each day's numbers are on its bars and in the table below the chart.`;

  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT + AXIS}`} role="group" aria-label={label} aria-describedby={`${id}-table`}>
        <line x1={PAD - 2} y1={HEIGHT} x2={WIDTH} y2={HEIGHT} className="axis" />
        <text x={0} y={10} className="axis-label" aria-hidden="true">
          {max}
        </text>
        <text x={0} y={HEIGHT} className="axis-label" aria-hidden="true">
          0
        </text>
        {days.map((d, i) => {
          const x = PAD + i * slot;
          const description = dayDescription(d);
          const labelled = (days.length - 1 - i) % LABEL_EVERY_DAYS === 0;
          return (
            <g key={d.day} role="img" aria-label={description} className="chart-day" data-day={d.day}>
              <title>{description}</title>
              {/* The whole slot answers the pointer, so a day with no bar still shows its numbers. */}
              <rect x={x} y={0} width={slot} height={HEIGHT} className="chart-hit" />
              {SERIES.map((s, j) => {
                const h = (d[s.key] / max) * (HEIGHT - 12);
                return (
                  <rect key={s.key} x={x + j * bar} y={HEIGHT - h} width={Math.max(1, bar - 1)} height={h} className={s.className} />
                );
              })}
              {labelled && (
                <>
                  <line x1={x + slot / 2} y1={HEIGHT} x2={x + slot / 2} y2={HEIGHT + 4} className="axis" />
                  <text
                    x={i === days.length - 1 ? x + slot : x + slot / 2}
                    y={HEIGHT + 16}
                    className="axis-label"
                    textAnchor={i === days.length - 1 ? 'end' : 'middle'}
                    aria-hidden="true"
                  >
                    {shortDay(d.day)}
                  </text>
                </>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="legend">
        {SERIES.map((s) => (
          <span key={s.key} className="legend-item">
            <span className={`swatch ${s.className}`} aria-hidden="true" /> {s.label}
          </span>
        ))}
      </figcaption>
      <table id={`${id}-table`} className="sr-only">
        <caption>Per-day counts</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            {SERIES.map((s) => (
              <th key={s.key} scope="col">
                {s.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.day}>
              <th scope="row">{d.day}</th>
              {SERIES.map((s) => (
                <td key={s.key}>{d[s.key]}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
