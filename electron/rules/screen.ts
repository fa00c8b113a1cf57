/**
 * The screen a proposed learning passes before it is taken up.
 *
 * A learning is injected into every later run of its agent, with no person in between. Its text
 * is therefore a channel from one run of an agent into the instructions of all its future runs,
 * and whatever can be written into it (by the agent, or by anything the agent read) can steer
 * those runs. The screen closes that channel and nothing else: it refuses text that would act on
 * the model rather than inform the work. Judging whether an insight is *good* is not its job;
 * expiry and the operator do that.
 *
 * The rules are fixed, not settings. A knob on the screen is a knob an attacker would want turned.
 *
 * The instruction rules look for phrases, so they are a net with holes, not a proof. They are
 * written for the forms injection actually takes (screenPhrases.ts), read the text after folding
 * away disguises (screenNormalise.ts) and read what encoded blocks decode to (screenDecode.ts),
 * while passing ordinary advice that merely mentions instructions, prompts, roles or systems; a
 * refused agent can always say the same fact in words that do not address the model. They are
 * measured on the labelled corpus in test/fixtures/screen/.
 */
import { decodedBlocks, hasBase64Run, reversed, rot13 } from './screenDecode.js';
import { screenForms } from './screenNormalise.js';
import { buildIndex, type Candidates, type RuleIndex } from './screenIndex.js';
import { negatedBefore, type Rule } from './screenPatterns.js';
import { PHRASE_FAMILIES, SPELLED_OUT_RULES, type PhraseFamily, type PhraseRule } from './screenPhrases.js';

/** The rule that refused a text; named in the refusal so the operator can see which one fired. */
export type ScreenRule = 'empty' | 'too_long' | 'control_characters' | 'invisible_characters' | PhraseRule | 'encoded_payload';

/** What the screen decided: the trimmed text to take up, or the rule that refused it and why. */
export type ScreenResult = { ok: true; text: string } | { ok: false; rule: ScreenRule; reason: string };

/**
 * Control characters, except tab, plus the Unicode line and paragraph separators.
 *
 * A learning is one idea on one line. A line break inside it is how a text fakes the start of a
 * new message or a new section of a prompt, so newlines are refused along with the rest.
 */
const CONTROL = /[\u0000-\u0008\u000A-\u001F\u007F-\u009F\u2028\u2029]/u;

/**
 * Characters a person reviewing the text cannot see, or that reorder what they see.
 *
 * Format characters (zero-width spaces and joiners, the soft hyphen, word joiners, invisible
 * operators, the byte-order mark, bidirectional marks, embeddings, overrides and isolates) and
 * the tag characters U+E0000–U+E007F, which spell out hidden ASCII. Any of them lets the text a
 * model reads differ from the text the operator reviews. Hangul fillers are included because
 * they render as nothing while counting as letters.
 */
const INVISIBLE = /[\p{Cf}\u{E0000}-\u{E007F}\u115F\u1160\u3164\uFFA0]/u;

const REASON_PREFIX = 'refused by the screen';

function refused(rule: ScreenRule, why: string): ScreenResult {
  return { ok: false, rule, reason: `${REASON_PREFIX} (${rule}): ${why}` };
}

const REASON_RULE = new RegExp(`^${REASON_PREFIX} \\(([a-z_]+)\\):`);

/**
 * The rule named in a refusal reason the screen wrote, or null for any other reason (a proposal
 * refused because it matches a rejected learning, or a reason from an older version). The ledger
 * keeps only the reason text, so this is how the Activity view groups refusals by rule.
 */
export function ruleOfReason(reason: string): string | null {
  return REASON_RULE.exec(reason)?.[1] ?? null;
}

function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

const NON_ASCII = /[^\x00-\x7F]/;

const RULES = PHRASE_FAMILIES.flatMap((family) => [...family.latin, ...family.script]);
/** Built at the first screening rather than at load: a process that never screens (the window's host) never pays for it. */
let index: RuleIndex | null = null;
const ruleIndex = (): RuleIndex => (index ??= buildIndex(RULES));

interface PhraseHit {
  family: PhraseFamily;
  /** Set when only the folded skeleton matched: the disguise is worth naming in the reason. */
  disguised: boolean;
}

/**
 * Whether every rule is tried on every text, the word index (screenIndex.ts) aside. Only the
 * corpus test sets it, to check that the index changes no decision; nothing in the app reaches it.
 */
let everyRule = false;

/** For the corpus test: `screen` with every rule tried, so the index can be checked against it. */
export function screenTryingEveryRule(text: string, maxText: number): ScreenResult {
  everyRule = true;
  try {
    return screen(text, maxText);
  } finally {
    everyRule = false;
  }
}

/** A scan of the whole form; a negatable rule's first match must not follow a negation. */
function scanned(rule: Rule, form: string): boolean {
  if (!rule.negatable) return rule.regex.test(form);
  const match = rule.regex.exec(form);
  return match !== null && !negatedBefore(form, match.index);
}

/** Whether `rule` matches `form`: on the whole form (`positions` null) or at the positions of its anchors. */
function tried(rule: Rule, form: string, positions: readonly number[] | null): boolean {
  if (rule.needs !== undefined && !rule.needs.test(form)) return false;
  if (positions === null) return scanned(rule, form);
  for (const position of positions) {
    rule.sticky.lastIndex = position;
    if (rule.sticky.test(form) && !(rule.negatable && negatedBefore(form, position))) return true;
  }
  return false;
}

/**
 * Whether one of `rules` (a family's latin or script rules, whose ids are consecutive) matches
 * `form`: only the candidates among them are tried, found in the sorted candidate ids.
 */
function matches(rules: readonly Rule[], form: string, candidates: Candidates): boolean {
  if (rules.length === 0) return false;
  if (everyRule) return rules.some((rule) => scanned(rule, form));
  const first = rules[0]!.id;
  const last = rules[rules.length - 1]!.id;
  const { ids, at } = candidates;
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (ids[middle]! < first) low = middle + 1;
    else high = middle;
  }
  for (let i = low; i < ids.length && ids[i]! <= last; i++) {
    if (tried(RULES[ids[i]!]!, form, at[i] as number[] | null)) return true;
  }
  return false;
}

/** The first phrase family that a text breaks, read in its plain form and its Latin skeleton. */
function phraseHit(text: string): PhraseHit | null {
  const { plain, skeleton, spelledOut } = screenForms(text);
  const otherScripts = NON_ASCII.test(plain);
  const plainCandidates = ruleIndex().candidates(plain);
  const skeletonCandidates = skeleton === null ? null : ruleIndex().candidates(skeleton);
  for (const family of PHRASE_FAMILIES) {
    if (matches(family.latin, plain, plainCandidates)) return { family, disguised: false };
    if (otherScripts && matches(family.script, plain, plainCandidates)) return { family, disguised: false };
    if (skeleton !== null && skeletonCandidates !== null && matches(family.latin, skeleton, skeletonCandidates)) {
      return { family, disguised: true };
    }
  }
  for (const run of spelledOut) {
    const spelled = SPELLED_OUT_RULES.find(({ pattern }) => pattern.test(run));
    const family = spelled && PHRASE_FAMILIES.find(({ rule }) => rule === spelled.rule);
    if (family) return { family, disguised: true };
  }
  return null;
}

/**
 * Words that an instruction to the model or a payload can hardly do without. A rot13 or reversed
 * reading of a text is screened in full only when one of them appears in it, which ordinary text
 * read that way (letter noise) practically never does. The test runs on the text itself, with
 * the words rot13-ed or reversed in advance, so ordinary text costs one regex test per reading
 * and no reading is built.
 */
const HINT_WORDS = [
  'ignore', 'disregard', 'forget', 'instruction', 'prompt', 'previous', 'above', 'you are', 'you re', 'from now on',
  'pretend', 'act as', 'override', 'reveal', 'curl', 'wget', 'token', 'password', 'secret', 'api key', 'id_rsa', '.env',
  'ssh', 'system', 'rules', 'execute', 'download', 'new rule', 'standing', 'always', 'never',
];

function hintFor(read: (text: string) => string): RegExp {
  const escaped = HINT_WORDS.map((word) => read(word).replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(escaped.join('|'));
}

const HIDDEN_READINGS: ReadonlyArray<{ name: string; read: (text: string) => string; hint: RegExp }> = [
  { name: 'rot13', read: rot13, hint: hintFor(rot13) },
  { name: 'reversed', read: reversed, hint: hintFor(reversed) },
];

/**
 * How deep readings are nested: "base64 twice", "rot13, then base64" and "base64, then rot13"
 * need two; each level decodes at most a few bounded blocks (screenDecode.ts).
 */
const MAX_READING_DEPTH = 2;

interface HiddenHit {
  hit: PhraseHit;
  /** The readings that led to it, outermost first: ["rot13", "base64"]. */
  path: string[];
}

/**
 * The first rule that a hidden reading of `text` breaks: what its base64 and hex blocks decode
 * to, and the text read as rot13 or backwards. A decoded block is itself read again (a payload
 * encoded twice); a rot13 or reversed reading is only searched for encoded blocks, which keeps
 * ordinary text at two cheap readings.
 */
function hiddenHit(text: string, depth: number, path: string[]): HiddenHit | null {
  for (const block of decodedBlocks(text)) {
    const inner = phraseHit(block.text);
    if (inner) return { hit: inner, path: [...path, block.encoding] };
    if (depth < MAX_READING_DEPTH) {
      const deeper = hiddenHit(block.text, depth + 1, [...path, block.encoding]);
      if (deeper) return deeper;
    }
  }
  const lower = text.toLowerCase();
  const blockShaped = depth < MAX_READING_DEPTH && hasBase64Run(text);
  for (const { name, read, hint } of HIDDEN_READINGS) {
    const hinted = hint.test(lower);
    if (!hinted && !blockShaped) continue;
    const reading = read(text);
    if (hinted) {
      const inner = phraseHit(reading);
      if (inner) return { hit: inner, path: [...path, name] };
    }
    if (blockShaped) {
      for (const block of decodedBlocks(reading)) {
        const inner = phraseHit(block.text);
        if (inner) return { hit: inner, path: [...path, name, block.encoding] };
      }
    }
  }
  return null;
}

/**
 * What the screen gives back of a text it lets through: the text without the blanks around it.
 * A helper that screened a text elsewhere (screenAhead.ts) reports only that it passed, and this
 * makes the answer's text from the text it was given.
 */
export function passedText(text: string): string {
  return text.trim();
}

/**
 * Screens a proposed learning. Returns its trimmed text when it passes, or the first rule it
 * breaks, with a reason a person can read.
 *
 * `maxText` counts Unicode code points, so a learning in Cyrillic or with emoji gets as many
 * characters as one in ASCII.
 */
export function screen(text: string, maxText: number): ScreenResult {
  const trimmed = passedText(text);
  if (trimmed.length === 0) return refused('empty', 'the text is empty');

  // A text has at most as many code points as UTF-16 units, so only one longer in units than
  // `maxText` is counted: counting spreads the text into an array of its characters, which every
  // proposal paid for before.
  if (trimmed.length > maxText) {
    const length = [...trimmed].length;
    if (length > maxText) {
      return refused('too_long', `the text is ${length} characters long, more than the ${maxText} allowed`);
    }
  }

  const control = CONTROL.exec(trimmed);
  if (control) {
    return refused(
      'control_characters',
      `the text holds the control character ${codePoint(control[0])}; a learning is one line, and tab is the only control character allowed`,
    );
  }

  const invisible = INVISIBLE.exec(trimmed);
  if (invisible) {
    return refused(
      'invisible_characters',
      `the text holds ${codePoint(invisible[0])}, an invisible or direction-changing character that would make what the model reads differ from what a person sees`,
    );
  }

  const hit = phraseHit(trimmed);
  if (hit) {
    const how = hit.disguised ? ' (read after folding look-alike letters, accents, digits and spaced-out letters)' : '';
    return refused(hit.family.rule, `${hit.family.why}${how}`);
  }

  const hidden = hiddenHit(trimmed, 1, []);
  if (hidden) {
    const { family } = hidden.hit;
    return refused('encoded_payload', `read as ${hidden.path.join(', then ')}, ${family.why} (${family.rule})`);
  }

  return { ok: true, text: trimmed };
}
