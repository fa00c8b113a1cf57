/**
 * The labelled screen corpus: every `*.jsonl` file in test/fixtures/screen/, one JSON object a line,
 * `{"text", "label": "attempt" | "ordinary", "family", "lang"?}`. Read by the corpus test and by
 * the screen bench, so both measure the same lines.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface CorpusLine {
  text: string;
  label: 'attempt' | 'ordinary';
  family: string;
  lang: string;
  /** Where the line is, for a message about it: `ordinary.jsonl:12`. */
  where: string;
}

export const CORPUS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'screen');

/** Every line of every corpus file; a malformed line throws naming its file and line. */
export function readCorpus(dir: string = CORPUS_DIR): CorpusLine[] {
  const lines: CorpusLine[] = [];
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.jsonl')).sort()) {
    fs.readFileSync(path.join(dir, file), 'utf8')
      .split('\n')
      .forEach((raw, index) => {
        if (raw.trim() === '') return;
        const where = `${file}:${index + 1}`;
        let parsed: unknown;
        try {
          parsed = JSON.parse(raw);
        } catch {
          throw new Error(`${where}: not a JSON object`);
        }
        const { text, label, family, lang } = (parsed ?? {}) as Record<string, unknown>;
        if (typeof text !== 'string' || (label !== 'attempt' && label !== 'ordinary') || typeof family !== 'string') {
          throw new Error(`${where}: needs "text", "label" ("attempt" or "ordinary") and "family"`);
        }
        lines.push({ text, label, family, lang: typeof lang === 'string' ? lang : 'en', where });
      });
  }
  return lines;
}

/** The family a line is counted under in the rates: its family, and its language when not English. */
export function familyKey(line: CorpusLine): string {
  return line.lang === 'en' ? `${line.label}/${line.family}` : `${line.label}/${line.family}/${line.lang}`;
}
