/**
 * `--flag k=v` options, read the same way by every command that takes them (`run start`,
 * `reply`), through the one shared parser (`shared/flags.ts`) the window's reply form uses too,
 * so a flag typed on the command line means what the same text means in the window.
 */
import type { Flags } from '../../shared/domain.js';
import { parseFlagItems } from '../../shared/flags.js';
import { Refusal } from './command.js';

/** Parses the values of one repeatable option (`--flag`, `--set-flag`); refuses any bad item. */
export function parseFlagOptions(list: readonly string[], option = 'flag'): Flags {
  const { flags, problems } = parseFlagItems(list.map((text) => ({ text, where: `--${option} ${text}` })));
  if (problems.length > 0) throw new Refusal(problems.join('; '));
  return flags;
}
