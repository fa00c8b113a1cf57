/**
 * Case 9: the screen (docs/rules.md#the-screen) on its labelled corpus in test/fixtures/screen/:
 * the share of injection attempts let through and of ordinary learnings refused, overall and per
 * family and language, and what screening one proposal costs.
 *
 * Catch rates are given as the share let through, so that every target is an upper bound like
 * the others (≥ 97 % refused is ≤ 3 % let through). The cost is the process's CPU time
 * (`timedCall` in the harness): these machines are shared and a wall clock measures the
 * neighbours. It is the best of several rounds over the corpus after one round that compiles the
 * rules (reported apart), and it is given for the whole corpus and for ordinary learnings alone,
 * which is what ingest mostly sees.
 *
 * Beside the target's figure the note gives the main thread's own CPU time, best of the same
 * rounds, and the host's pauses just after them. On a slower machine the case went over its
 * 50 µs in single runs with every round slowed, and fast again when timed alone
 * (docs/development.md#known-limits): the thread's own time tells whether the process's other
 * threads took the difference or the screening itself ran slower, the pauses how busy the host
 * was then.
 */
import { screen } from '../../../electron/rules/screen.js';
import { familyKey, readCorpus, type CorpusLine } from '../../support/screenCorpus.js';
import { QUICK_SIZES, formatCount, result, threadCpuMs, timedCall, type BenchCase } from '../harness.js';
import { hostPauses } from '../hostPauses.js';

/** The screen's longest text in the corpus run: above every corpus line, so length never refuses. */
const MAX_TEXT = 4000;
const MOST_LET_THROUGH = 3;
const MOST_FALSE_REFUSALS = 0.5;
const MOST_MICROSECONDS = 50;
const ROUNDS = 15;
const QUICK_ROUNDS = 3;

function share(lines: CorpusLine[], counted: (line: CorpusLine) => boolean): number {
  return lines.length === 0 ? 0 : (100 * lines.filter(counted).length) / lines.length;
}

export const screenCase: BenchCase = {
  id: 'screen',
  about: 'the screen on its labelled corpus: attempts let through and ordinary learnings refused, per family; µs per proposal',
  run({ sizes }) {
    const quick = sizes === QUICK_SIZES;
    const corpus = readCorpus();
    const refused = (line: CorpusLine): boolean => !screen(line.text, MAX_TEXT).ok;
    const passed = (line: CorpusLine): boolean => !refused(line);
    const attempts = corpus.filter((line) => line.label === 'attempt');
    const ordinary = corpus.filter((line) => line.label === 'ordinary');
    const byFamily = new Map<string, CorpusLine[]>();
    for (const line of corpus) byFamily.set(familyKey(line), [...(byFamily.get(familyKey(line)) ?? []), line]);

    const out: { result: ReturnType<typeof result>; note: string }[] = [
      {
        result: result(`screen: attempts let through, all (${attempts.length})`, share(attempts, passed), '%', null, { on: 'value', most: MOST_LET_THROUGH }),
        note: `${(100 - share(attempts, passed)).toFixed(1)} % refused (target ≥ ${100 - MOST_LET_THROUGH} %)`,
      },
      {
        result: result(`screen: ordinary learnings refused, all (${ordinary.length})`, share(ordinary, refused), '%', null, { on: 'value', most: MOST_FALSE_REFUSALS }),
        note: 'engineering advice that mentions systems, prompts, instructions, roles and tokens',
      },
    ];
    for (const [key, lines] of [...byFamily.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const attempt = key.startsWith('attempt/');
      const family = key.slice(key.indexOf('/') + 1);
      out.push({
        result: attempt
          ? result(`screen: attempts let through, ${family} (${lines.length})`, share(lines, passed), '%', null, { on: 'value', most: MOST_LET_THROUGH })
          : result(`screen: ordinary refused, ${family} (${lines.length})`, share(lines, refused), '%', null, { on: 'value', most: MOST_FALSE_REFUSALS }),
        note: attempt ? 'injection attempts of this family' : 'ordinary learnings of this family',
      });
    }
    /**
     * µs a proposal over `lines`: the first round's, and the best of the rounds after it by the
     * process's CPU time and by the main thread's own (null where the kernel does not tell it).
     */
    const cost = (lines: CorpusLine[]): { first: number; best: number; bestThread: number | null } => {
      const texts = lines.map((line) => line.text);
      const all = (): void => {
        for (const text of texts) screen(text, MAX_TEXT);
      };
      const round = (): { processUs: number; threadUs: number | null } => {
        const threadBefore = threadCpuMs();
        const processUs = (timedCall(all).cpuMs * 1000) / texts.length;
        const threadAfter = threadCpuMs();
        const threadUs = threadBefore === null || threadAfter === null ? null : ((threadAfter - threadBefore) * 1000) / texts.length;
        return { processUs, threadUs };
      };
      const first = round().processUs;
      const rounds = Array.from({ length: quick ? QUICK_ROUNDS : ROUNDS }, round);
      const threads = rounds.map((r) => r.threadUs);
      return {
        first,
        best: Math.min(...rounds.map((r) => r.processUs)),
        bestThread: threads.every((us): us is number => us !== null) ? Math.min(...threads) : null,
      };
    };
    const whole = cost(corpus);
    const pauses = hostPauses();
    const plain = cost(ordinary);
    const threadPart = (us: number | null): string => (us === null ? 'not told on this system' : `${us.toFixed(1)} µs`);
    out.push(
      {
        result: result(`screen: µs per proposal, corpus average (${corpus.length} texts)`, whole.best, 'µs', null, { on: 'value', most: MOST_MICROSECONDS }),
        note:
          `CPU time of the process, best of ${quick ? QUICK_ROUNDS : ROUNDS} rounds; the first round (compiling the rules) ${whole.first.toFixed(1)} µs; ` +
          `the main thread's own, best of the same rounds, ${threadPart(whole.bestThread)}; just after them the host paused this thread ${formatCount(pauses.perSecond)} times a second, ` +
          `${(pauses.share * 100).toFixed(1)} % of its time, at one point of the millisecond in ${(pauses.onePoint * 100).toFixed(0)} % of its milliseconds`,
      },
      {
        result: result(`screen: µs per proposal, ordinary learnings only (${ordinary.length})`, plain.best, 'µs', null, null),
        note: `what ingest mostly screens; the main thread's own CPU time, best of the same rounds, ${threadPart(plain.bestThread)}`,
      },
    );
    return { results: out };
  },
};
