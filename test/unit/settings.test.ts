import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, SettingsSchema, parseSettingsToml, validateSettings } from '../../electron/rules/settings.js';
import { seededRandom } from '../../electron/rules/seededRandom.js';

function errorsOf(text: string): string[] {
  const result = parseSettingsToml(text);
  return 'errors' in result ? result.errors : [];
}

describe('settings: defaults', () => {
  it('the defaults are 20 runs, 3 rediscoveries, 400 characters, 25 a run, 14 days lapsed and 90 days retention', () => {
    expect(DEFAULT_SETTINGS).toEqual({
      learnings: { provisional_runs: 20, confirm_after: 3, max_text: 400, max_per_run: 25, keep_lapsed_days: 14 },
      retention: { days: 90 },
    });
  });

  it('an empty file gives the defaults without warnings', () => {
    expect(parseSettingsToml('')).toEqual({ settings: DEFAULT_SETTINGS, warnings: [] });
  });

  it('a key left out takes its default while the keys given are used', () => {
    const result = parseSettingsToml('[learnings]\nprovisional_runs = 40\n');
    expect(result).toEqual({
      settings: { ...DEFAULT_SETTINGS, learnings: { ...DEFAULT_SETTINGS.learnings, provisional_runs: 40 } },
      warnings: [],
    });
  });

  it('the full example file from the specification is accepted as written', () => {
    const text = [
      '[learnings]',
      'provisional_runs = 20   # runs a provisional learning survives',
      'confirm_after = 3',
      'max_text = 400',
      'max_per_run = 25',
      'keep_lapsed_days = 14',
      '',
      '[retention]',
      'days = 90',
    ].join('\n');
    expect(parseSettingsToml(text)).toEqual({ settings: DEFAULT_SETTINGS, warnings: [] });
  });

  it('checking settings never changes the defaults', () => {
    parseSettingsToml('[learnings]\nmax_text = 10\n[retention]\ndays = 5\n');
    expect(DEFAULT_SETTINGS.learnings.max_text).toBe(400);
    expect(DEFAULT_SETTINGS.retention.days).toBe(90);
  });
});

describe('settings: zero where zero means never', () => {
  it.each([
    ['learnings', 'provisional_runs', 'would lapse every learning before any run used it'],
    ['learnings', 'confirm_after', 'without a single rediscovery'],
    ['learnings', 'max_text', 'would refuse every proposed learning'],
    ['learnings', 'max_per_run', 'would give no learning to any run'],
    ['retention', 'days', 'as soon as they are recorded'],
  ])('[%s] %s = 0 is refused with the key and why', (section, key, why) => {
    const errors = errorsOf(`[${section}]\n${key} = 0\n`);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`${section}.${key} = 0`);
    expect(errors[0]).toContain(why);
  });

  it('learnings.provisional_runs = 0 says it would lapse every learning before any run used it', () => {
    expect(errorsOf('[learnings]\nprovisional_runs = 0\n')).toEqual([
      'learnings.provisional_runs = 0 would lapse every learning before any run used it',
    ]);
  });

  it('keep_lapsed_days = 0 is accepted: a lapsed learning is deleted at once', () => {
    const result = parseSettingsToml('[learnings]\nkeep_lapsed_days = 0\n');
    expect('settings' in result && result.settings.learnings.keep_lapsed_days).toBe(0);
  });
});

describe('settings: negatives, fractions and wrong types are refused anywhere', () => {
  it.each(['provisional_runs', 'confirm_after', 'max_text', 'max_per_run', 'keep_lapsed_days'])(
    'a negative learnings.%s is refused',
    (key) => {
      expect(errorsOf(`[learnings]\n${key} = -1\n`)).toEqual([`learnings.${key} = -1 is negative; it must be 0 or more`]);
    },
  );

  it('a negative retention.days is refused', () => {
    expect(errorsOf('[retention]\ndays = -5\n')).toEqual(['retention.days = -5 is negative; it must be 0 or more']);
  });

  it('a fraction is refused as not a whole number', () => {
    expect(errorsOf('[learnings]\nkeep_lapsed_days = 1.5\n')).toEqual(['learnings.keep_lapsed_days = 1.5 is not a whole number']);
  });

  it('a whole number written as a TOML float is refused, since the file says float', () => {
    const errors = errorsOf('[learnings]\nmax_text = 400.0\n');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('learnings.max_text = 400 is written as a decimal number');
  });

  it('a number in quotes is refused as text', () => {
    expect(errorsOf('[learnings]\nmax_text = "400"\n')).toEqual([
      'learnings.max_text must be a whole number, but it is text ("400"); write the number without quotes',
    ]);
  });

  it('a boolean, an array, a date and a table are refused as wrong types', () => {
    const errors = errorsOf(
      '[learnings]\nmax_text = true\nmax_per_run = [1]\nconfirm_after = 2026-01-01\nprovisional_runs = { a = 1 }\n',
    );
    expect(errors).toEqual([
      'learnings.max_text must be a whole number, but it is a boolean (true)',
      'learnings.max_per_run must be a whole number, but it is an array',
      'learnings.confirm_after must be a whole number, but it is a date',
      'learnings.provisional_runs must be a whole number, but it is a table',
    ]);
  });

  it('an integer too large to count with is refused', () => {
    expect(errorsOf('[retention]\ndays = 9223372036854775807\n')[0]).toContain('retention.days = 9223372036854775807 is too large');
  });

  it('a whole number past what a double counts exactly is refused in settings built in code too', () => {
    const result = validateSettings({ learnings: { max_text: 2 ** 53 } });
    expect('errors' in result ? result.errors : []).toEqual(['learnings.max_text = 9007199254740992 is too large to count with']);
  });

  it('a section that is not a table is refused', () => {
    expect(errorsOf('learnings = 5\n')).toEqual(['[learnings] must be a section (a table), but it is a number']);
  });

  it('every bad key is reported at once, not only the first', () => {
    expect(errorsOf('[learnings]\nmax_text = 0\nmax_per_run = -2\n[retention]\ndays = 0\n')).toHaveLength(3);
  });

  it('a file with one bad key is refused as a whole, so no good key from it is applied', () => {
    const result = parseSettingsToml('[learnings]\nprovisional_runs = 40\nmax_text = 0\n');
    expect('settings' in result).toBe(false);
  });
});

describe('settings: unknown keys are warned about and ignored', () => {
  it('an unknown key in a known section is a warning naming it', () => {
    expect(parseSettingsToml('[learnings]\nprovisonal_runs = 40\n')).toEqual({
      settings: DEFAULT_SETTINGS,
      warnings: ['unknown key learnings.provisonal_runs is ignored'],
    });
  });

  it('an unknown section is a warning naming it', () => {
    expect(parseSettingsToml('[tower]\nport = 80\n')).toEqual({
      settings: DEFAULT_SETTINGS,
      warnings: ['unknown section [tower] is ignored'],
    });
  });

  it('an unknown top-level key is a warning naming it', () => {
    expect(parseSettingsToml('verbose = true\n')).toEqual({
      settings: DEFAULT_SETTINGS,
      warnings: ['unknown key verbose is ignored'],
    });
  });

  it('warnings are kept alongside errors', () => {
    expect(parseSettingsToml('[learnings]\nmax_text = 0\ncolour = "red"\n')).toEqual({
      errors: ['learnings.max_text = 0 would refuse every proposed learning as too long'],
      warnings: ['unknown key learnings.colour is ignored'],
    });
  });

  it('keys named like object internals are unknown keys, not a way into the settings object', () => {
    const result = parseSettingsToml('[learnings]\n__proto__ = 1\nconstructor = 2\n');
    expect(result).toEqual({
      settings: DEFAULT_SETTINGS,
      warnings: ['unknown key learnings.__proto__ is ignored', 'unknown key learnings.constructor is ignored'],
    });
  });
});

describe('settings: TOML syntax and already-parsed values', () => {
  it('a TOML syntax error is reported with its line', () => {
    const errors = errorsOf('[learnings]\nmax_text = 400\nmax_per_run = = 25\n');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^layover\.toml line 3, column \d+: /);
    expect(errors[0]).not.toContain('\n');
  });

  it('a key defined twice is a syntax error with its line', () => {
    expect(errorsOf('[learnings]\nmax_text = 400\nmax_text = 300\n')[0]).toMatch(/^layover\.toml line 3, /);
  });

  it('already-parsed settings with plain whole numbers are accepted', () => {
    expect(validateSettings({ learnings: { max_text: 200 } })).toEqual({
      settings: { ...DEFAULT_SETTINGS, learnings: { ...DEFAULT_SETTINGS.learnings, max_text: 200 } },
      warnings: [],
    });
  });

  it('already-parsed settings with a fraction are refused', () => {
    expect(validateSettings({ retention: { days: 0.5 } })).toEqual({
      errors: ['retention.days = 0.5 is not a whole number'],
      warnings: [],
    });
  });

  it('settings that are not a table are refused', () => {
    expect(validateSettings(null)).toEqual({ errors: ['the settings must be a TOML table of sections'], warnings: [] });
    expect(validateSettings([1])).toEqual({ errors: ['the settings must be a TOML table of sections'], warnings: [] });
  });
});

describe('settings: the schema and the checker', () => {
  it('take and refuse the same tables, and give the same settings from the tables they take', () => {
    const next = seededRandom(1201);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
    const values: readonly unknown[] = [
      0, 1, 2, 20, -1, 1.5, 2.0, 0.0, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 2, 0n, 1n, 7n, -3n,
      BigInt(Number.MAX_SAFE_INTEGER) + 1n, '20', true, null, [], {}, new Date(0),
    ];
    const keys = { learnings: [...Object.keys(DEFAULT_SETTINGS.learnings), 'unknown'], retention: ['days', 'unknown'] };
    let taken = 0;
    for (let i = 0; i < 5_000; i++) {
      const raw: Record<string, unknown> = {};
      for (const section of ['learnings', 'retention', 'extra'] as const) {
        const roll = next();
        if (roll < 0.2) continue;
        if (roll < 0.25) {
          raw[section] = pick(values);
          continue;
        }
        const table: Record<string, unknown> = {};
        for (const key of section === 'extra' ? ['x'] : keys[section]) if (next() < 0.4) table[key] = pick(values);
        raw[section] = table;
      }
      const checked = validateSettings(raw);
      const parsed = SettingsSchema.safeParse(raw);
      expect('settings' in checked, JSON.stringify(raw, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))).toBe(parsed.success);
      if ('settings' in checked && parsed.success) {
        expect(checked.settings).toEqual(parsed.data);
        taken++;
      }
    }
    expect(taken).toBeGreaterThan(200);
    expect(taken).toBeLessThan(4_800);
  });
});
