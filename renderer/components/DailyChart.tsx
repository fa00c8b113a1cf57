import { useId } from 'react';
import type { DayStats } from '../../shared/api.js';

const SERIES = [
  { key: 'proposals', label: 'Proposals', className: 'bar-proposals' },
  { key: 'lapses', label: 'Lapses', className: 'bar-lapses' },
  { key: 'help_requests', label: 'Help requests', className: 'bar-help' },
] as const;

const WIDTH = 640;
const HEIGHT = 140;
const PAD = 20;

/** Per-day proposals, lapses and help requests as grouped bars; the numbers are in a table beside it. */
export function DailyChart({ days }: { days: DayStats[] }) {
  const id = useId();
  const max = Math.max(1, ...days.flatMap((d) => [d.proposals, d.lapses, d.help_requests]));
  const slot = days.length > 0 ? (WIDTH - PAD) / days.length : WIDTH;
  const bar = Math.max(1, (slot - 2) / 3);
  const totals = SERIES.map((s) => `${days.reduce((sum, d) => sum + d[s.key], 0)} ${s.label.toLowerCase()}`).join(', ');
  const label = `Per day over the last ${days.length} days: ${totals}. The numbers are in the table below the chart.`;

  return (
    <figure className="chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT + PAD}`} role="img" aria-label={label} aria-describedby={`${id}-table`}>
        <title>{label}</title>
        <line x1={PAD - 2} y1={HEIGHT} x2={WIDTH} y2={HEIGHT} className="axis" />
        <text x={0} y={10} className="axis-label">
          {max}
        </text>
        <text x={0} y={HEIGHT} className="axis-label">
          0
        </text>
        {days.map((d, i) =>
          SERIES.map((s, j) => {
            const h = (d[s.key] / max) * (HEIGHT - 12);
            return (
              <rect
                key={`${d.day}-${s.key}`}
                x={PAD + i * slot + j * bar}
                y={HEIGHT - h}
                width={Math.max(1, bar - 1)}
                height={h}
                className={s.className}
              />
            );
          }),
        )}
        {days.length > 0 && (
          <>
            <text x={PAD} y={HEIGHT + 15} className="axis-label">
              {days[0]!.day}
            </text>
            <text x={WIDTH} y={HEIGHT + 15} className="axis-label" textAnchor="end">
              {days[days.length - 1]!.day}
            </text>
          </>
        )}
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
