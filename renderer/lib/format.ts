/** Small pure helpers for showing numbers, times and filters to the operator. */
import type { LearningFilter } from '../../shared/api.js';
import type { Flags, Learning } from '../../shared/domain.js';

import { count, plural } from '../../shared/words.js';

export { count, plural };

/**
 * How long a learning has before it lapses, as the list and the detail both say it ("lapses in
 * 1 run"); only a provisional learning counts runs down.
 */
export function runsLeft(l: Pick<Learning, 'state' | 'runs_left'>): string {
  if (l.state !== 'provisional') return '—';
  return `lapses in ${plural(l.runs_left, 'run')}`;
}

export function percent(x: number): string {
  return `${Math.round(x * 100)}%`;
}

/** "2026-05-01 14:03" in the operator's local time; the raw value stays in the title. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

export function ago(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const t = new Date(iso).getTime();
  if (Number.isNaN(t)) return iso;
  const s = Math.round((now - t) / 1000);
  if (s < 45) return 'just now';
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  const h = Math.round(m / 60);
  if (h < 36) return `${h} h ago`;
  const d = Math.round(h / 24);
  return `${d} days ago`;
}

/** The filter in words, as the bulk action bar states it: "agent = reviewer, provisional". */
export function describeFilter(filter: LearningFilter): string {
  const parts: string[] = [];
  if (filter.agent) parts.push(`agent = ${filter.agent}`);
  if (filter.states && filter.states.length > 0) parts.push(filter.states.join(' or '));
  if (filter.impacts && filter.impacts.length > 0) parts.push(`impact ${filter.impacts.join(' or ')}`);
  if (filter.search && filter.search.trim()) parts.push(`text contains “${filter.search.trim()}”`);
  return parts.length > 0 ? parts.join(', ') : 'all learnings';
}

export function formatFlags(flags: Flags | null): string {
  if (!flags) return 'unknown';
  const entries = Object.entries(flags);
  if (entries.length === 0) return 'none';
  return entries.map(([k, v]) => `${k}=${String(v)}`).join(', ');
}

export function parseRoutes(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter(Boolean);
}
