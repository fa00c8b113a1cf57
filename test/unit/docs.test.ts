/**
 * The documents stay true to the tree and to the CLI (issue 12, item 7). The code cites
 * headings of docs/ ("docs/rules.md#sameness"), the README and the documents link each other,
 * and docs/cli.md repeats every command's `--help`: each of these goes stale silently when a
 * heading is renamed, a file moved or a help text changed, so each is checked here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../electron/cli/commands.js';
import { cli } from '../support/cli.js';

const root = path.resolve(import.meta.dirname, '..', '..');

/** The README is the page a newcomer reads to the end; the reference lives in docs/. */
const README_MOST_LINES = 150;

/** Folders whose sources may cite a document; test/fixtures holds corpus texts that only mention paths. */
const CITING_FOLDERS = ['electron', 'shared', 'renderer', 'scripts', 'test', 'bin'];
const NOT_CITING = [path.join('test', 'fixtures')];

/** Markdown without its fenced blocks and inline code, where brackets are text, not links. */
function proseOf(markdown: string): string {
  return markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
}

/**
 * The anchor GitHub gives a heading: lower-case, punctuation dropped (letters, digits, marks,
 * spaces, `-` and `_` stay), each space a hyphen; a repeated heading gets `-1`, `-2`, ….
 */
function githubAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const withoutBlocks = markdown.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
  for (const match of withoutBlocks.matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const text = match[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = text
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/**
 * What is wrong with one reference to `target` (a path with an optional `#anchor`, relative to
 * `fromDir`; an empty path is the file itself), or null when it resolves.
 */
function brokenReference(fromFile: string, fromDir: string, target: string): string | null {
  const hash = target.indexOf('#');
  const filePart = hash === -1 ? target : target.slice(0, hash);
  const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
  const file = filePart === '' ? fromFile : path.resolve(fromDir, decodeURIComponent(filePart));
  if (!fs.existsSync(file)) return `${target}: no such file`;
  if (anchor === null || anchor === '') return null;
  if (!file.endsWith('.md')) return `${target}: an anchor into a file that is not Markdown`;
  return githubAnchors(fs.readFileSync(file, 'utf8')).has(anchor) ? null : `${target}: no heading with that anchor`;
}

/**
 * Citations in `source` that name a part of a document in words after the file
 * ("docs/development.md, session 18") instead of by its heading's anchor. Only an anchor is
 * checked against the document, so a part named in words goes stale unseen when the part moves:
 * that is how the code came to cite measurements that had left docs/development.md.
 */
function partsInWords(source: string): string[] {
  return [...source.matchAll(/\bdocs\/[a-z0-9-]+\.md, [^\n)]*/g)].map((match) => match[0]);
}

/** Every relative link of one Markdown file that does not resolve, as "target: why". */
function brokenLinks(file: string): string[] {
  const problems: string[] = [];
  const prose = proseOf(fs.readFileSync(file, 'utf8'));
  for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = match[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
    const problem = brokenReference(file, path.dirname(file), target);
    if (problem !== null) problems.push(problem);
  }
  return problems;
}

function documents(): string[] {
  const docs = path.join(root, 'docs');
  const inDocs = fs
    .readdirSync(docs)
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join(docs, name));
  return [path.join(root, 'README.md'), ...inDocs];
}

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (NOT_CITING.includes(path.relative(root, full)) || entry.name === 'node_modules') continue;
    if (entry.isDirectory()) files.push(...sourceFiles(full));
    else if (/\.(ts|tsx|js|mjs|cjs)$/.test(entry.name)) files.push(full);
  }
  return files;
}

let citing: { file: string; text: string }[] | null = null;

/** Every source file that may cite a document, with its text: read once for the rules that check citations. */
function citingSources(): { file: string; text: string }[] {
  citing ??= CITING_FOLDERS.flatMap((folder) => sourceFiles(path.join(root, folder))).map((file) => ({ file, text: fs.readFileSync(file, 'utf8') }));
  return citing;
}

/** What `layover-desk <argv>` prints on stdout, run in-process as `bin/layover-desk.js` would run it. */
async function printed(argv: string[]): Promise<string> {
  return (await cli(argv, os.tmpdir())).stdout.trimEnd();
}

/** The fenced text blocks of docs/cli.md that show a `--help`. */
function helpBlocksOf(markdown: string): string[] {
  return [...markdown.matchAll(/^```text\n(usage: layover-desk [\s\S]*?)\n```$/gm)].map((m) => m[1]!);
}

const cliDoc = () => fs.readFileSync(path.join(root, 'docs', 'cli.md'), 'utf8');

describe('the documents', () => {
  const temps: string[] = [];
  afterEach(() => {
    for (const dir of temps.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names a heading by the anchor GitHub gives it: lower-case, punctuation dropped, spaces to hyphens', () => {
    const anchors = githubAnchors(
      "# Title\n## A person's decisions\n## Settings: `layover.toml`\n## Runs & chains\n```\n# not a heading\n```\n## Title\n",
    );
    expect([...anchors]).toEqual(['title', 'a-persons-decisions', 'settings-layovertoml', 'runs--chains', 'title-1']);
  });

  it('reports a link to a missing file and an anchor naming no heading, and passes the ones that resolve', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-links-'));
    temps.push(dir);
    fs.writeFileSync(path.join(dir, 'other.md'), '# Other\n## Known limits\n');
    const page = path.join(dir, 'page.md');
    fs.writeFileSync(
      page,
      [
        '# Page',
        '[fine](other.md#known-limits) [here](#page) [web](https://example.com/x.md)',
        '[gone](missing.md) [stale](other.md#limits) `[not a link](nowhere.md)`',
        '```',
        '[in a block](nowhere.md)',
        '```',
      ].join('\n'),
    );
    expect(brokenLinks(page)).toEqual(['missing.md: no such file', 'other.md#limits: no heading with that anchor']);
  });

  it('every relative link in README.md and docs/*.md points to a file that exists, and every anchor to a heading there', () => {
    const problems = documents().flatMap((file) => brokenLinks(file).map((problem) => `${path.relative(root, file)}: ${problem}`));
    expect(problems).toEqual([]);
  });

  it('tells a part of a document named in words after its file from a file or an anchor cited alone', () => {
    const source = [
      '// (docs/development.md, session 18) and (docs/cli.md, issue 10): named in words',
      '// (docs/rules.md#sameness, "It must stay exact"), docs/cli.md: exit codes, docs/window.md; keys',
    ].join('\n');
    expect(partsInWords(source)).toEqual(['docs/development.md, session 18', 'docs/cli.md, issue 10']);
  });

  it('the code names a part of a document by its heading\'s anchor, which the next rule checks, never in words', () => {
    const inWords = citingSources()
      .filter(({ file }) => file !== path.join(root, 'test', 'unit', 'docs.test.ts'))
      .flatMap(({ file, text }) => partsInWords(text).map((cited) => `${path.relative(root, file)}: ${cited}`));
    expect(inWords, 'cite the part as docs/<file>.md#<heading-anchor>').toEqual([]);
  });

  it('every docs/*.md the code cites exists, with the heading its anchor names', () => {
    const problems: string[] = [];
    for (const { file, text } of citingSources()) {
      for (const match of text.matchAll(/\bdocs\/[a-z0-9-]+\.md(?:#[a-z0-9-]+)?/g)) {
        const problem = brokenReference(file, root, match[0]);
        if (problem !== null) problems.push(`${path.relative(root, file)}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it(`README.md is at most ${README_MOST_LINES} lines, so a newcomer reads it to the end`, () => {
    const lines = fs.readFileSync(path.join(root, 'README.md'), 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(README_MOST_LINES);
  });

  it('README.md keeps the two first commands with their comments, which CI and a hook look for', () => {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    expect(readme).toContain('npm ci && npm start     # install, then open the app');
    expect(readme).toContain('npm test                # build if needed, then unit + integration tests');
  });
});

describe('docs/cli.md', () => {
  it('lists every command the CLI has, under its own heading, with its usage line exactly as --help prints it', () => {
    const doc = cliDoc();
    const missing: string[] = [];
    for (const command of COMMANDS) {
      const name = command.name.join(' ');
      if (!doc.includes(`\n## \`${name}\`\n`)) missing.push(`${name}: no heading`);
      if (!doc.includes(`\nusage: layover-desk ${command.usage}\n`)) missing.push(`${name}: usage: layover-desk ${command.usage}`);
    }
    expect(missing).toEqual([]);
  });

  it("shows each command's whole --help text as the CLI prints it, and no help of a command the CLI lacks", async () => {
    const expected = [
      await printed(['--help']),
      await printed(['run', '--help']),
      ...(await Promise.all(COMMANDS.map((command) => printed([...command.name, '--help'])))),
    ];
    const shown = helpBlocksOf(cliDoc());
    const stale = expected.filter((help) => !shown.includes(help));
    expect(stale, 'paste these --help texts into docs/cli.md').toEqual([]);
    expect(shown.filter((block) => !expected.includes(block))).toEqual([]);
  });
});
