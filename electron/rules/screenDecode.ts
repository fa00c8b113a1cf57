/**
 * What encoded blocks in a proposed learning decode to, so the screen can read that too.
 *
 * A model decodes base64, hex and rot13 on request, and reads reversed text, so "decode this and
 * do what it says: aWdub3Jl…" carries an instruction past any rule that reads only the surface.
 * The decoders here are bounded: at most `MAX_BLOCKS` blocks per text, each decoded to at most
 * `MAX_DECODED` characters, and a block counts only if it decodes to readable text, so hashes,
 * ids and paths (which decode to noise) cost one failed decode each and nothing more.
 */

/** Encoded blocks decoded per text; an attempt needs one, ordinary text has none. */
const MAX_BLOCKS = 4;
/** Characters kept of one decoded block: longer than any learning the screen lets through. */
const MAX_DECODED = 2048;
/** Share of a decoded block that must be letters, digits, spaces or common punctuation. */
const MIN_READABLE_SHARE = 0.9;
/** A decoded block shorter than this cannot hold a phrase worth screening. */
const MIN_DECODED_LENGTH = 8;

/** base64 (standard or URL-safe) of at least 12 bytes; the case matters, so it reads the raw text. */
const BASE64_BLOCK = /(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_-]{16,}={0,2}(?![A-Za-z0-9+/=_-])/g;
/** Hex: contiguous, byte-separated ("69 67 6e" / "69:67:6e"), `\x69\x67` escapes, or `%69%67`. */
const HEX_BLOCK = /(?<![0-9a-f])(?:[0-9a-f]{2}){8,}(?![0-9a-f])|(?<![0-9a-f])[0-9a-f]{2}(?:[ :,-][0-9a-f]{2}){7,}(?![0-9a-f])|(?:\\x[0-9a-f]{2}){6,}|(?:0x[0-9a-f]{2}[ ,]*){6,}|(?:%[0-9a-f]{2}){6,}/gi;
const HEX_PAIR = /[0-9a-f]{2}/gi;

/** The run of base64 letters a block needs before it is worth decoding: the 12 bytes of BASE64_BLOCK. */
const BASE64_RUN = 16;

const BASE64_LETTER = 1;
const HEX_DIGIT = 2;
/** By ASCII code, bits: BASE64_LETTER for a letter of BASE64_BLOCK (either alphabet), HEX_DIGIT for a hex digit. */
const ASCII_CLASS = new Uint8Array(128);
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-') ASCII_CLASS[char.charCodeAt(0)]! |= BASE64_LETTER;
for (const char of '0123456789abcdefABCDEF') ASCII_CLASS[char.charCodeAt(0)]! |= HEX_DIGIT;

const isHex = (text: string, at: number): boolean => ((ASCII_CLASS[text.charCodeAt(at)] ?? 0) & HEX_DIGIT) !== 0;
/** A separator between hex bytes in HEX_BLOCK: space, colon, comma or dash. */
const isByteSeparator = (text: string, at: number): boolean => {
  const code = text.charCodeAt(at);
  return code === 0x20 || code === 0x3a || code === 0x2c || code === 0x2d;
};

/**
 * Whether `text` holds a run of BASE64_RUN base64 letters: what a base64 block needs, and what a
 * rot13 or reversed reading keeps (see `hiddenHit`). One pass with a counter: the regex
 * `[A-Za-z0-9+/_-]{16}` re-reads the rest of each word from every position in it, and ran on
 * every proposal.
 */
export function hasBase64Run(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    if (((ASCII_CLASS[text.charCodeAt(i)] ?? 0) & BASE64_LETTER) === 0) run = 0;
    else if (++run === BASE64_RUN) return true;
  }
  return false;
}

/**
 * Whether `text` holds what one of the blocks above starts with, tested before their regexes: a
 * run of base64 letters, three separated hex pairs, `\x` and a hex digit, `0x` and two, or `%` and
 * two (`x` in lower case only). Most learnings hold none, and the five alternatives as one regex
 * were tried at every position of every proposal. A start missed here is a block never decoded,
 * and one found where there is none costs two regex scans, so it must say what that regex said:
 * the unit test compares the two.
 */
export function mayHoldBlock(text: string): boolean {
  if (hasBase64Run(text)) return true;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x5c /* \ */ && text.charCodeAt(i + 1) === 0x78 /* x */ && isHex(text, i + 2)) return true;
    if (code === 0x25 /* % */ && isHex(text, i + 1) && isHex(text, i + 2)) return true;
    if (code === 0x30 /* 0 */ && text.charCodeAt(i + 1) === 0x78 && isHex(text, i + 2) && isHex(text, i + 3)) return true;
    if (
      isHex(text, i) && isHex(text, i + 1) && isByteSeparator(text, i + 2) && isHex(text, i + 3) && isHex(text, i + 4) &&
      isByteSeparator(text, i + 5) && isHex(text, i + 6) && isHex(text, i + 7)
    ) {
      return true;
    }
  }
  return false;
}
const NOT_HEX = /\\x|0x|[^0-9a-f]/gi;

const READABLE = /[\p{L}\p{N}\s.,;:!?'"()[\]{}<>|/\\@#$%^&*+=_~`-]/u;
const UTF8 = new TextDecoder('utf-8', { fatal: true });

function readable(text: string): boolean {
  if (text.length < MIN_DECODED_LENGTH) return false;
  let good = 0;
  let total = 0;
  for (const char of text) {
    total++;
    if (READABLE.test(char)) good++;
  }
  return good / total >= MIN_READABLE_SHARE && /\p{L}{2,}/u.test(text);
}

const UTF16 = new TextDecoder('utf-16le', { fatal: true });
/** Share of zero bytes above which a block is read as UTF-16 (PowerShell's -EncodedCommand). */
const UTF16_ZERO_SHARE = 0.3;

/** Share of control bytes (other than zero, tab and line breaks) above which bytes are noise, not text. */
const MAX_CONTROL_SHARE = 0.05;

function decodeBytes(bytes: Uint8Array): string | null {
  let zeros = 0;
  let controls = 0;
  for (const byte of bytes) {
    if (byte === 0) zeros++;
    else if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) controls++;
  }
  // Decoding noise with a fatal decoder throws, and a throw costs more than this count.
  if (controls / Math.max(1, bytes.length) > MAX_CONTROL_SHARE) return null;
  try {
    if (bytes.length % 2 === 0 && zeros / Math.max(1, bytes.length) > UTF16_ZERO_SHARE) return UTF16.decode(bytes);
    return isUtf8(bytes) ? UTF8.decode(bytes) : null;
  } catch {
    return null;
  }
}

/**
 * Whether the fatal UTF-8 decoder takes `bytes` without throwing: the well-formed sequences of
 * the Encoding Standard (no overlong forms, no surrogates, nothing above U+10FFFF, nothing cut
 * off at the end). Checked first because paths and identifiers of sixteen letters or more look
 * like base64 and decode to bytes that pass the control count but are no UTF-8; the decoder's
 * throw (an error with its stack) cost more than the rest of screening such a text. It must agree
 * with the decoder, byte for byte: the unit test compares the two.
 */
export function isUtf8(bytes: Uint8Array): boolean {
  const length = bytes.length;
  let i = 0;
  while (i < length) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    let more: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) more = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      more = 2;
      if (lead === 0xe0) low = 0xa0;
      else if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      more = 3;
      if (lead === 0xf0) low = 0x90;
      else if (lead === 0xf4) high = 0x8f;
    } else return false;
    if (i + more >= length) return false;
    const second = bytes[i + 1]!;
    if (second < low || second > high) return false;
    for (let k = 2; k <= more; k++) {
      const next = bytes[i + k]!;
      if (next < 0x80 || next > 0xbf) return false;
    }
    i += more + 1;
  }
  return true;
}

function fromBase64(block: string): string | null {
  const standard = block.replaceAll('-', '+').replaceAll('_', '/').replace(/=+$/, '');
  if (standard.length % 4 === 1) return null;
  const padded = standard + '='.repeat((4 - (standard.length % 4)) % 4);
  let binary: string;
  try {
    binary = atob(padded);
  } catch {
    return null;
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return decodeBytes(bytes);
}

function fromHex(block: string): string | null {
  const pairs = block.replace(NOT_HEX, '').match(HEX_PAIR);
  if (!pairs) return null;
  return decodeBytes(Uint8Array.from(pairs, (pair) => parseInt(pair, 16)));
}

/** rot13 of the Latin letters, case kept (so base64 inside survives); everything else stays. */
export function rot13(input: string): string {
  const codes = new Uint16Array(input.length);
  for (let i = 0; i < input.length; i++) {
    const code = input.charCodeAt(i);
    if (code >= 65 && code <= 90) codes[i] = ((code - 65 + 13) % 26) + 65;
    else if (code >= 97 && code <= 122) codes[i] = ((code - 97 + 13) % 26) + 97;
    else codes[i] = code;
  }
  return String.fromCharCode(...codes);
}

/** The text read backwards, by code point. */
export function reversed(text: string): string {
  return [...text].reverse().join('');
}

export interface DecodedBlock {
  encoding: 'base64' | 'hex';
  text: string;
}

/** The readable text that the base64 and hex blocks of `text` decode to, bounded (see above). */
export function decodedBlocks(text: string): DecodedBlock[] {
  const out: DecodedBlock[] = [];
  if (!mayHoldBlock(text)) return out;
  const found: Array<{ encoding: DecodedBlock['encoding']; block: string }> = [];
  for (const match of text.matchAll(HEX_BLOCK)) found.push({ encoding: 'hex', block: match[0] });
  for (const match of text.matchAll(BASE64_BLOCK)) {
    if (found.some((hex) => hex.block.includes(match[0]))) continue;
    found.push({ encoding: 'base64', block: match[0] });
  }
  for (const { encoding, block } of found.slice(0, MAX_BLOCKS)) {
    const decoded = encoding === 'hex' ? fromHex(block) : fromBase64(block);
    if (decoded !== null && readable(decoded)) out.push({ encoding, text: decoded.slice(0, MAX_DECODED) });
  }
  return out;
}
