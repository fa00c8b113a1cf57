/**
 * The factory's own numbers, from `layover.toml`.
 *
 * How many runs tell a fluke from a fact depends on how often an agent runs, which only the
 * factory knows, so these are the factory's to set. Each is checked for the values that would
 * quietly stop learnings working (zero where zero means "never", negatives, fractions) and
 * otherwise taken as written: raising one widens what a wrong learning can do, but the factory
 * that raises it is the one that pays for it. A file that fails the check is refused as a whole,
 * never half-applied, so the Desk goes on with settings that were all checked together.
 *
 * Sameness and the screen are deliberately absent: a setting there could only be wrong in ways
 * nobody would notice, or be turned by an attacker.
 */
import { parse, TomlError } from 'smol-toml';
import { z } from 'zod';
import { firstListed } from './listing.js';

/** A count a setting holds: whole, at least `least`, small enough to count with exactly. */
const count = (least: 0 | 1) =>
  z
    .union([z.number().int(), z.bigint().min(BigInt(Number.MIN_SAFE_INTEGER)).max(BigInt(Number.MAX_SAFE_INTEGER))])
    .transform(Number)
    .pipe(z.number().int().min(least).max(Number.MAX_SAFE_INTEGER));

/** A TOML table: an object, not an array and not a date (TOML's dates are objects too). */
const table = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z
    .custom<Record<string, unknown>>((value) => typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date))
    .pipe(z.object(shape));

/**
 * The settings, defined once: every key, the least value it takes (1 where zero is refused, see
 * WHY_NOT_ZERO) and its default; `Settings` is inferred from it. The checker below
 * (`validateSettings`) reads the same rules by hand, for its messages (which say what a zero or a
 * decimal would do) and its warnings about unknown keys; `test/unit/settings.test.ts` holds the
 * two together on generated tables.
 */
export const SettingsSchema = table({
  learnings: table({
    provisional_runs: count(1).default(20),
    confirm_after: count(1).default(3),
    max_text: count(1).default(400),
    max_per_run: count(1).default(25),
    keep_lapsed_days: count(0).default(14),
  }).prefault({}),
  retention: table({ days: count(1).default(90) }).prefault({}),
});

export type Settings = z.output<typeof SettingsSchema>;

/** The numbers one factory's pace was tuned on; every key left out of the file takes its default. */
export const DEFAULT_SETTINGS: Settings = deepFrozen(SettingsSchema.parse({}));

function deepFrozen(settings: Settings): Settings {
  Object.freeze(settings.learnings);
  Object.freeze(settings.retention);
  return Object.freeze(settings);
}

export type SettingsResult = { settings: Settings; warnings: string[] } | { errors: string[]; warnings: string[] };

/**
 * What a zero would silently do, for each key where zero is refused. A key missing here accepts
 * zero: `keep_lapsed_days = 0` deletes a lapsed learning at once, which a factory relying on
 * Keep may well want.
 */
const WHY_NOT_ZERO: Readonly<Record<string, string>> = {
  'learnings.provisional_runs': 'would lapse every learning before any run used it',
  'learnings.confirm_after': 'would make a learning permanent without a single rediscovery to show it is true',
  'learnings.max_text': 'would refuse every proposed learning as too long',
  'learnings.max_per_run': 'would give no learning to any run',
  'retention.days': 'would delete help requests, runs and the proposal log as soon as they are recorded',
};

const SECTIONS = {
  learnings: Object.keys(DEFAULT_SETTINGS.learnings),
  retention: Object.keys(DEFAULT_SETTINGS.retention),
} as const;

type SectionName = keyof typeof SECTIONS;

function isSectionName(name: string): name is SectionName {
  return Object.hasOwn(SECTIONS, name);
}

function isTable(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** How a TOML value of the wrong type reads in an error. */
function describe(value: unknown): string {
  if (typeof value === 'string') return `text (${JSON.stringify(value)}); write the number without quotes`;
  if (typeof value === 'boolean') return `a boolean (${value})`;
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' || typeof value === 'bigint') return 'a number';
  if (value instanceof Date) return 'a date';
  if (isTable(value)) return 'a table';
  return `a ${typeof value}`;
}

/**
 * Checks one value. TOML keeps integers and floats apart (`20` and `20.0`), but once parsed into
 * JavaScript both are numbers; `floatsAreNumbers` says the caller parsed integers as bigints, so
 * any plain number it hands over was written as a float and is refused even when whole.
 */
function checkValue(key: string, value: unknown, floatsAreNumbers: boolean): number | string {
  let whole: number;
  if (typeof value === 'bigint') {
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) {
      return `${key} = ${value} is too large to count with`;
    }
    whole = Number(value);
  } else if (typeof value === 'number') {
    if (!Number.isInteger(value)) return `${key} = ${value} is not a whole number`;
    if (!Number.isSafeInteger(value)) return `${key} = ${value} is too large to count with`;
    if (floatsAreNumbers) {
      return `${key} = ${value} is written as a decimal number; write it as a whole number, without a decimal point or exponent`;
    }
    whole = value;
  } else {
    return `${key} must be a whole number, but it is ${describe(value)}`;
  }

  if (whole < 0) return `${key} = ${whole} is negative; it must be 0 or more`;
  const whyNotZero = WHY_NOT_ZERO[key];
  if (whole === 0 && whyNotZero !== undefined) return `${key} = 0 ${whyNotZero}`;
  return whole;
}

/** The first problems about one file one by one, then one "and N more" line. */
function capped(problems: string[], what: string): string[] {
  const { listed, more } = firstListed(problems);
  return more === 0 ? problems : [...listed, `and ${more} more ${what}`];
}

function check(raw: unknown, floatsAreNumbers: boolean): SettingsResult {
  const result = checkAll(raw, floatsAreNumbers);
  const warnings = capped(result.warnings, 'warnings');
  return 'errors' in result ? { errors: capped(result.errors, 'errors'), warnings } : { settings: result.settings, warnings };
}

function checkAll(raw: unknown, floatsAreNumbers: boolean): SettingsResult {
  const errors: string[] = [];
  const warnings: string[] = [];
  if (!isTable(raw)) return { errors: ['the settings must be a TOML table of sections'], warnings };

  const settings: Settings = {
    learnings: { ...DEFAULT_SETTINGS.learnings },
    retention: { ...DEFAULT_SETTINGS.retention },
  };

  for (const [sectionName, section] of Object.entries(raw)) {
    if (!isSectionName(sectionName)) {
      warnings.push(
        isTable(section)
          ? `unknown section [${sectionName}] is ignored`
          : `unknown key ${sectionName} is ignored`,
      );
      continue;
    }
    if (!isTable(section)) {
      errors.push(`[${sectionName}] must be a section (a table), but it is ${describe(section)}`);
      continue;
    }
    const known: readonly string[] = SECTIONS[sectionName];
    const target = settings[sectionName] as Record<string, number>;
    for (const [name, value] of Object.entries(section)) {
      const key = `${sectionName}.${name}`;
      if (!known.includes(name)) {
        warnings.push(`unknown key ${key} is ignored`);
        continue;
      }
      const checked = checkValue(key, value, floatsAreNumbers);
      if (typeof checked === 'string') errors.push(checked);
      else target[name] = checked;
    }
  }

  return errors.length > 0 ? { errors, warnings } : { settings, warnings };
}

/**
 * Checks settings already parsed from TOML (or built in code). Missing keys take their defaults;
 * unknown keys and sections are warned about and otherwise ignored, so a newer file still loads.
 */
export function validateSettings(raw: unknown): SettingsResult {
  return check(raw, false);
}

/** Parses and checks the text of `layover.toml`. A syntax error is reported with its line. */
export function parseSettingsToml(text: string): SettingsResult {
  let raw: unknown;
  try {
    raw = parse(text, { integersAsBigInt: true });
  } catch (error) {
    if (error instanceof TomlError) {
      const summary = error.message.split('\n')[0]?.replace(/^Invalid TOML document:\s*/u, '') ?? error.message;
      return { errors: [`layover.toml line ${error.line}, column ${error.column}: ${summary}`], warnings: [] };
    }
    throw error;
  }
  return check(raw, true);
}
