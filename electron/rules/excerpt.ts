/**
 * The excerpt kept of a refused event line (docs/factory-format.md#reading-events): a short,
 * printable beginning of it, for the Activity view and `layover-desk refused`.
 *
 * Why it is cut where it is: a line is refused whole, and most refused lines are JSON. Cut at a
 * fixed number of characters, the excerpt ended inside a string or a key (`"chain":"…`), which
 * reads as if the line itself were cut there, hiding whether the line was broken or only its
 * excerpt. So a line longer than the excerpt is cut after the last whole value that fits
 * (a string that is not a key, a number, a literal, a closing bracket), and the ellipsis says
 * that more followed. Only when no whole value fits (one long string at the start, a line that
 * is not JSON) does it fall back to the last space or punctuation, then to a plain cut.
 */

/** How many characters of a line an excerpt shows at most, not counting the ellipsis. */
export const EXCERPT_CHARS = 120;
/** More bytes than the excerpt can show (a character is at most 4 bytes), so a cut is always seen. */
const EXCERPT_BYTES = EXCERPT_CHARS * 4;
const ELLIPSIS = '…';
const PUNCTUATION = new Set(['{', '}', '[', ']', ':', ',']);
const CLOSING = new Set(['}', ']']);

/** Whether a character would be invisible or move the text (controls, format and line separators). */
function invisible(ch: string): boolean {
  const code = ch.codePointAt(0)!;
  return code < 0x20 || code === 0x7f || (code >= 0x80 && code < 0xa0) || /[\p{Cf}\p{Zl}\p{Zp}]/u.test(ch);
}

function printable(ch: string): string {
  return invisible(ch) ? `\\u{${ch.codePointAt(0)!.toString(16)}}` : ch;
}

/**
 * The places a cut may fall (code point indexes into `chars`, the cut falling before that index):
 * `values` after whole JSON values, `loose` after any whole token or space.
 */
function cutPlaces(chars: readonly string[]): { values: number[]; loose: number[] } {
  const values: number[] = [];
  const loose: number[] = [];
  const nextIsColon = (from: number): boolean | undefined => {
    for (let j = from; j < chars.length; j++) if (!/\s/.test(chars[j]!)) return chars[j] === ':';
    return undefined;
  };
  let i = 0;
  while (i < chars.length) {
    const ch = chars[i]!;
    if (/\s/.test(ch) || PUNCTUATION.has(ch)) {
      i++;
      loose.push(i);
      if (CLOSING.has(ch)) values.push(i);
      continue;
    }
    let end = i + 1;
    if (ch === '"') {
      while (end < chars.length && chars[end] !== '"') end += chars[end] === '\\' ? 2 : 1;
      if (end >= chars.length) break; // the string runs past what was read
      end++;
    } else {
      while (end < chars.length && !/\s/.test(chars[end]!) && !PUNCTUATION.has(chars[end]!) && chars[end] !== '"') end++;
      if (end >= chars.length) break; // the number or word may go on past what was read
    }
    i = end;
    loose.push(i);
    if (ch !== '"' || nextIsColon(i) === false) values.push(i);
  }
  return { values, loose };
}

export function excerptOf(bytes: Uint8Array): string {
  const chars = [...new TextDecoder().decode(bytes.subarray(0, EXCERPT_BYTES))];
  const shown = chars.map(printable);
  // widths[k]: how many characters the first k characters take once made printable.
  const widths = [0];
  for (const s of shown) widths.push(widths[widths.length - 1]! + [...s].length);
  if (bytes.length <= EXCERPT_BYTES && widths[chars.length]! <= EXCERPT_CHARS) return shown.join('');

  const fits = (k: number) => widths[k]! <= EXCERPT_CHARS;
  const { values, loose } = cutPlaces(chars);
  const last = (places: number[]) => places.filter(fits).pop();
  let cut = last(values) ?? last(loose);
  if (cut === undefined) {
    cut = 0;
    while (cut < chars.length && fits(cut + 1)) cut++;
  }
  return `${shown.slice(0, cut).join('').trimEnd()}${ELLIPSIS}`;
}
