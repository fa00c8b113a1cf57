/**
 * The one reader of typed flag values (docs/rules.md#help-requests-and-replies): the window's reply form, the CLI's `--flag` and
 * `--set-flag` options all parse `key=value` through here, so the same text gives the same flag
 * on every side. Two readers had drifted apart: the form turned `version=1.10` into the number
 * 1.1 and let a repeated key silently win, while the CLI kept "1.10" and refused it — a reply's
 * flags then depended on which side the person used.
 *
 * Values:
 * - `true` / `false` become booleans;
 * - a value becomes a number only when it is a JSON number that writes back as the same text
 *   (`1.5`, `42`, `-3`). Anything a number would change stays the text that was typed: `1.10`
 *   (a number loses the trailing zero), a 20-digit integer (it would round), `1e3`, `007`, `-0`.
 *   A flag is how the work was asked for; changing its text could change what a chain may do.
 * - everything else is the text, trimmed of surrounding spaces.
 *
 * A key given twice is refused naming the key: guessing which of the two was meant could flip a
 * permission (`publish=false` then `publish=true`).
 */
import type { Flags } from './domain.js';

export type FlagValue = string | number | boolean;

/** One `key=value` item and where it came from, for messages (`line 2`, `--flag publish=true`). */
export interface FlagItem {
  text: string;
  where: string;
}

export interface ParsedFlags {
  flags: Flags;
  /** One line per item that could not be read; empty when every item was read. */
  problems: string[];
}

/** The JSON number grammar: what `JSON.parse` reads as a number, and nothing else. */
const JSON_NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

export function parseFlagValue(raw: string): FlagValue {
  const text = raw.trim();
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (JSON_NUMBER.test(text)) {
    const n = Number(text);
    if (Number.isFinite(n) && JSON.stringify(n) === text) return n;
  }
  return text;
}

export function parseFlagItems(items: readonly FlagItem[]): ParsedFlags {
  const flags: Flags = {};
  const problems: string[] = [];
  for (const { text, where } of items) {
    const eq = text.indexOf('=');
    const key = eq === -1 ? '' : text.slice(0, eq).trim();
    if (eq === -1) problems.push(`${where}: expected key=value`);
    else if (key === '') problems.push(`${where}: the key is empty`);
    else if (Object.hasOwn(flags, key)) problems.push(`${where}: the flag "${key}" is given more than once`);
    else flags[key] = parseFlagValue(text.slice(eq + 1));
  }
  return { flags, problems };
}

/** The window's flag box: one `key=value` per line; blank lines and `#` comments are skipped. */
export function parseFlagLines(text: string): ParsedFlags {
  const items: FlagItem[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line !== '' && !line.startsWith('#')) items.push({ text: line, where: `line ${index + 1}` });
  });
  return parseFlagItems(items);
}
