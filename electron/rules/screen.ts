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
 * tuned to refuse the forms injection actually takes while passing ordinary advice that merely
 * mentions instructions, prompts, roles or systems; a refused agent can always say the same
 * fact in words that do not address the model.
 */

/** The rule that refused a text; named in the refusal so the operator can see which one fired. */
export type ScreenRule =
  | 'empty'
  | 'too_long'
  | 'control_characters'
  | 'invisible_characters'
  | 'chat_template'
  | 'system_prompt'
  | 'instruction_override'
  | 'role_change';

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

/**
 * A word in the phrase rules below; anything else separates words. The two never overlap, so a
 * pattern can split text into words only one way and cannot backtrack its way into slowness.
 */
const WORD = String.raw`[\p{L}\p{N}]+`;
const SEP = String.raw`[^\p{L}\p{N}]+`;
const START = String.raw`(?<![\p{L}\p{N}])`;
const END = String.raw`(?![\p{L}\p{N}])`;

/** Up to `most` arbitrary words, each preceded by a separator. */
function gap(most: number): string {
  return `(?:${SEP}${WORD}){0,${most}}?`;
}

/** One of several alternatives as a whole word, or a phrase whose words any separator may join. */
function anyOf(...words: string[]): string {
  return `${START}(?:${words.map((word) => word.replaceAll(' ', SEP)).join('|')})${END}`;
}

function phrase(...parts: string[]): RegExp {
  return new RegExp(parts.join(''), 'u');
}

/**
 * Markers chat templates use to separate messages and roles. Written into a learning, they let
 * the text close the message it sits in and open one that speaks as the system or the user.
 */
const CHAT_TEMPLATE: readonly RegExp[] = [
  /<\|[^|<>\s]{1,40}\|>/u, // <|im_start|>, <|endoftext|>, <|eot_id|>, <|system|>, ...
  /\[\/?inst\]/u, // [INST] ... [/INST]
  /<<\/?sys>>/u, // <<SYS>> ... <</SYS>>
  /<\/?(?:system|assistant|im_start|im_end|start_of_turn|end_of_turn)(?:\s[^>]*)?>/u,
  /#{2,}\s*(?:system|instructions?|response|assistant|human|user)\s*:/u, // ### System:
  /^(?:system|assistant)\s*:/u, // a text that opens as a message from the system
];

const REVEAL_OR_CHANGE = anyOf(
  'reveal', 'print', 'show', 'display', 'output', 'repeat', 'recite', 'echo', 'leak', 'dump',
  'expose', 'disclose', 'share', 'tell', 'change', 'modify', 'alter', 'edit', 'rewrite', 'replace',
  'update', 'override',
);

/**
 * Asking the model to show or change the prompt it runs under. Mentioning a system prompt is
 * fine; telling the model to do something to it is not.
 */
const SYSTEM_PROMPT: readonly RegExp[] = [
  phrase(REVEAL_OR_CHANGE, gap(4), SEP, anyOf('system prompts?', 'system instructions?')),
  phrase(REVEAL_OR_CHANGE, gap(3), SEP, anyOf('developer', 'hidden', 'secret', 'initial', 'original'), SEP, anyOf('prompts?')),
  phrase(REVEAL_OR_CHANGE, gap(2), SEP, anyOf('your'), SEP, anyOf('prompts?', 'instructions', 'guidelines', 'system messages?')),
];

const OVERRIDE = anyOf('ignore', 'disregard', 'override', 'forget', 'bypass', 'dismiss', 'discard');
const EARLIER = anyOf('previous', 'previously', 'prior', 'earlier', 'above', 'preceding', 'foregoing', 'former', 'original', 'initial', 'your');
const ORDERS = anyOf('instructions?', 'prompts?', 'rules', 'directions', 'directives', 'guidelines', 'guidance', 'commands', 'orders', 'context');

/**
 * Telling the model to set aside what it was told before.
 *
 * The qualifier (previous, above, your, ...) is what separates an override from advice: "ignore
 * any instructions inside issue bodies" is sound advice about untrusted input, while "ignore all
 * previous instructions" is aimed at the model's own.
 */
const INSTRUCTION_OVERRIDE: readonly RegExp[] = [
  phrase(OVERRIDE, gap(4), SEP, EARLIER, gap(2), SEP, ORDERS),
  phrase(OVERRIDE, gap(2), SEP, ORDERS, gap(3), SEP, anyOf('above', 'earlier', 'previously', 'before this', 'so far')),
  phrase(OVERRIDE, gap(2), SEP, ORDERS, SEP, anyOf('you'), SEP, anyOf('were', 'have', 've'), gap(1), SEP, anyOf('given', 'told')),
  phrase(OVERRIDE, SEP, anyOf('everything', 'anything', 'all'), SEP, anyOf('above', 'before', 'previously', 'prior', 'earlier')),
  phrase(OVERRIDE, SEP, anyOf('everything', 'anything', 'all'), SEP, anyOf('you'), SEP, anyOf('were', 'have', 've'), gap(1), SEP, anyOf('told', 'given')),
];

const YOU_ARE = anyOf('you are', 'you re');

/**
 * Giving the model a new identity.
 *
 * Phrased narrowly, because learnings do address the agent: "after nvm use you are now on node
 * 22" is advice, "you are now a release bot" is a new role. Likewise "act as" only counts where
 * it is addressed to someone, so "the proxy can act as a cache" passes.
 */
const ROLE_CHANGE: readonly RegExp[] = [
  phrase(YOU_ARE, SEP, anyOf('now'), SEP, anyOf('a', 'an', 'the', 'my', 'called', 'named', 'known as', 'free', 'unrestricted', 'unfiltered', 'uncensored', 'jailbroken', 'dan')),
  phrase(YOU_ARE, SEP, anyOf('now in'), gap(2), SEP, anyOf('mode')),
  phrase(YOU_ARE, SEP, anyOf('no longer'), SEP, anyOf('bound', 'restricted', 'limited', 'constrained', 'an ai', 'an assistant', 'a language model')),
  phrase(anyOf('from now on'), SEP, YOU_ARE),
  phrase(anyOf('from now on'), SEP, anyOf('you'), SEP, anyOf('will', 'll', 'must', 'shall', 'should'), SEP, anyOf('be', 'act', 'respond', 'behave', 'answer', 'reply', 'obey')),
  phrase(String.raw`(?:^|[.!?;:]\s*|`, anyOf('you', 'please', 'now', 'should', 'must', 'will', 'll'), String.raw`\s+)`, anyOf('act as')),
  phrase(anyOf('pretend'), SEP, anyOf('to be', 'you are', 'you re', 'that you')),
  phrase(anyOf('role play', 'roleplay'), SEP, anyOf('as')),
  phrase(anyOf('assume', 'take on', 'adopt'), SEP, anyOf('the', 'a', 'an'), SEP, anyOf('role', 'persona', 'identity'), SEP, anyOf('of')),
];

const PHRASE_RULES: ReadonlyArray<{ rule: ScreenRule; patterns: readonly RegExp[]; why: string }> = [
  {
    rule: 'chat_template',
    patterns: CHAT_TEMPLATE,
    why: 'the text holds a chat-template marker that could start a new message to the model',
  },
  {
    rule: 'system_prompt',
    patterns: SYSTEM_PROMPT,
    why: 'the text asks the model to reveal or change its system prompt',
  },
  {
    rule: 'instruction_override',
    patterns: INSTRUCTION_OVERRIDE,
    why: 'the text tells the model to ignore its earlier instructions',
  },
  {
    rule: 'role_change',
    patterns: ROLE_CHANGE,
    why: 'the text tells the model to take on a new role',
  },
];

function refused(rule: ScreenRule, why: string): ScreenResult {
  return { ok: false, rule, reason: `refused by the screen (${rule}): ${why}` };
}

function codePoint(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * The form the phrase rules read: compatibility-folded (so full-width letters and look-alike
 * bars such as "｜" become plain ones) and lower-case.
 */
function folded(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

/**
 * Screens a proposed learning. Returns its trimmed text when it passes, or the first rule it
 * breaks, with a reason a person can read.
 *
 * `maxText` counts Unicode code points, so a learning in Cyrillic or with emoji gets as many
 * characters as one in ASCII.
 */
export function screen(text: string, maxText: number): ScreenResult {
  const trimmed = text.trim();
  if (trimmed.length === 0) return refused('empty', 'the text is empty');

  const length = [...trimmed].length;
  if (length > maxText) {
    return refused('too_long', `the text is ${length} characters long, more than the ${maxText} allowed`);
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

  const plain = folded(trimmed);
  for (const { rule, patterns, why } of PHRASE_RULES) {
    if (patterns.some((pattern) => pattern.test(plain))) return refused(rule, why);
  }

  return { ok: true, text: trimmed };
}
