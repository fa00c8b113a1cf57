/**
 * `--flag k=v` options, read the same way by every command that takes them (`run start`,
 * `reply`), so a flag typed on the command line means one thing everywhere.
 *
 * Values: `true` / `false` become booleans, integers become numbers, anything else stays a
 * string (`--flag target=v2.1` is the string "v2.1"). A flag given twice, or written without
 * `=` or without a name, is refused: guessing which one was meant could flip what a chain may do.
 */
import type { Flags } from '../../shared/domain.js';
import { Refusal } from './command.js';

export function parseFlagValue(raw: string): string | number | boolean {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (/^-?\d+$/.test(raw)) {
    const n = Number(raw);
    if (Number.isSafeInteger(n)) return n;
  }
  return raw;
}

export function parseFlagOptions(list: readonly string[]): Flags {
  const flags: Flags = {};
  for (const item of list) {
    const eq = item.indexOf('=');
    const key = eq === -1 ? '' : item.slice(0, eq).trim();
    if (eq === -1 || key === '') {
      throw new Refusal(`--flag ${JSON.stringify(item)} is not of the form name=value`);
    }
    if (Object.hasOwn(flags, key)) throw new Refusal(`--flag ${key} is given more than once`);
    flags[key] = parseFlagValue(item.slice(eq + 1));
  }
  return flags;
}
