/**
 * The benchmark's data: learning-like texts and whole factories of events, generated from seeds.
 *
 * Why it has to look real: what matching, the word index and full-text search cost depends on
 * the words. A vocabulary of a few thousand pseudo-words makes every candidate filter look good
 * (every word is rare) or bad (every word is common) depending on its size; real learnings are
 * mostly common English ("before", "tests", "build") with the names that make them specific —
 * tools, files, functions, error codes, versions, numbers — in a long tail. So the vocabulary is
 * common English first, then the real names, then a long tail of derived words and identifiers
 * (more than 20,000 distinct significant words in all), drawn with a Zipf distribution
 * (the word of rank r with probability ∝ 1/r).
 *
 * Why rewordings: 30% of proposals say again what an earlier one said, with a word dropped,
 * added or swapped, or other punctuation. Those are the echoes and rediscoveries the Desk exists
 * to recognise; without them every proposal is new and matching never finds anything.
 *
 * Everything depends only on the seed (and, for event times, the last day), so every run
 * measures the same work and a surprising figure can be reproduced.
 */
import fs from 'node:fs';
import path from 'node:path';
import { HELP_CATEGORIES, IMPACTS, RUN_OUTCOMES } from '../../shared/domain.js';
import { serializeEvent, type FactoryEvent } from '../../electron/rules/events.js';
import { seededRandom } from '../../electron/rules/seededRandom.js';

type Random = () => number;

function pick<T>(next: Random, list: readonly T[]): T {
  return list[Math.floor(next() * list.length)]!;
}

/** Fisher–Yates with the seeded generator, so the tail's order is fixed by the seed. */
function shuffled<T>(next: Random, list: readonly T[]): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

// Common English of engineering notes. Kept clear of the words the screen (docs/rules.md#the-screen) reads as
// addressing the model ("ignore", "instructions", "prompt", "system", "download"…), so that the
// corpus measures matching and storage, not refusals.
const ENGLISH = `
before after always when while until because every each other first last next again still
build builds test tests suite check checks cache cached caching release publish deploy branch
merge commit review change changes update upgrade install version versions package packages
config configuration setting settings option options value values default file files folder
directory path paths local remote server client request response error errors warning failure
fails failed timeout retry retries network connection database query index table column schema
migration backup restore memory disk space limit limits large small slow fast quick fresh stale
clean state start stop restart service services worker workers queue queues thread threads
process processes container image images volume volumes cluster node nodes secret secrets
permission permissions access owner group user users account login session sessions cookie
header headers body field fields record records entry entries event events message messages
channel channels stream streams buffer output input format parse parser parsing encode decode
encoding string strings number numbers date dates time times zone month week hour minute second
seconds minutes hours days weeks months year years often rarely usually sometimes never mind
first second third half twice double single multiple several many most least more less only
also even just really quite rather early late later sooner instead otherwise however therefore
which where what there their these those them then than this that with from into onto over
under above below between across through without within around about against along behind
beyond during except inside outside since toward upon makes make made uses used using need needs
needed keep keeps kept take takes taken give gives given find finds found show shows shown
call calls called read reads write writes wrote written load loads loaded save saves saved
open opens opened close closes closed send sends sent receive receives received handle handles
handled create creates created delete deletes deleted remove removes removed rename renames
renamed copy copies copied move moves moved compare compares compared match matches matched
sort sorts sorted filter filters filtered group groups grouped count counts counted measure
pinned pin pins lock locks locked lockfile unlock runner runners pipeline pipelines workflow
workflows job jobs step steps stage stages artifact artifacts report reports coverage flaky
failing passing green broken fixed patch patches hotfix rollback revert reverted tag tags
label labels milestone issue issues ticket tickets ownership maintainer maintainers upstream
downstream vendor vendored mirror registry registries proxy proxies gateway endpoint endpoints
route routes router handler handlers middleware plugin plugins extension extensions module
modules bundle bundles bundler chunk chunks asset assets static dynamic import imports export
exports type types interface interfaces class classes method methods function functions
variable variables constant constants argument arguments parameter parameters return returns
promise promises async await callback callbacks loop loops array arrays object objects map
maps list lists hash hashes key keys token tokens certificate certificates domain domains
locale locales timezone timezones unicode ascii binary text texts line lines column columns
width height size sizes order ordering first-run warm cold startup shutdown signal signals
exit code codes status health probe probes metric metrics trace traces logs logging logger
verbose quiet debug release-notes changelog readme license docs documentation example examples
sample samples fixture fixtures snapshot snapshots mock mocks stub stubs spy spies assertion
assertions expect expects expected actual result results benchmark baseline regression
regressions threshold budget budgets quota quotas rate rates throttle throttled backoff jitter
concurrency parallel serial sequential batch batches bulk chunked paging page pages cursor
offset offsets window windows screen screens layout layouts style styles theme themes color
colors font fonts icon icons button buttons dialog dialogs modal form forms label-less focus
keyboard shortcut shortcuts mouse click clicks scroll scrolling virtual render renders rendered
`
  .split(/\s+/u)
  .filter((word) => word.length > 0);

const TOOLS = `npm pnpm yarn npx node deno bun cargo rustc rustup clippy rustfmt go gofmt pip pipx
poetry uv python pytest tox mypy ruff black maven gradle javac kotlin swift xcodebuild cmake
make ninja bazel meson gcc clang lldb gdb valgrind docker podman buildah kubectl helm kustomize
terraform pulumi ansible packer vagrant git gh hub jq yq curl wget rsync ssh scp openssl gpg
psql pg_dump redis-cli mysql sqlite3 mongosh eslint prettier tsc vitest jest mocha playwright
cypress webpack vite rollup esbuild turbo nx lerna changesets renovate dependabot sentry
grafana prometheus nginx caddy systemd journalctl cron tmux ripgrep fd fzf bat`
  .split(/\s+/u)
  .filter((word) => word.length > 0);

const FILES = `package.json package-lock.json pnpm-lock.yaml yarn.lock tsconfig.json tsconfig.base.json
.github/workflows/ci.yml .github/workflows/release.yml .github/dependabot.yml Cargo.toml
Cargo.lock go.mod go.sum pyproject.toml requirements.txt setup.cfg Makefile Dockerfile
docker-compose.yml .dockerignore .gitignore .gitattributes .editorconfig .nvmrc .npmrc
vite.config.ts vitest.config.ts jest.config.js webpack.config.js eslint.config.js .prettierrc
babel.config.js rollup.config.mjs main.tf variables.tf outputs.tf terraform.tfvars values.yaml
Chart.yaml kustomization.yaml deployment.yaml nginx.conf Caddyfile crontab build.gradle
pom.xml settings.xml Gemfile Gemfile.lock composer.json CMakeLists.txt meson.build
BUILD.bazel WORKSPACE renovate.json CODEOWNERS CHANGELOG.md README.md LICENSE`
  .split(/\s+/u)
  .filter((word) => word.length > 0);

const REAL_FUNCTIONS = `parseConfig useEffect useState useMemo useCallback useRef useReducer
useContext JSON.parse JSON.stringify Promise.all Promise.allSettled setTimeout setInterval
requestAnimationFrame structuredClone fetch readFileSync writeFileSync createReadStream
spawnSync execFile process.exit Array.from Object.entries Object.freeze Symbol.iterator
Intl.DateTimeFormat Date.parse toISOString localeCompare normalize encodeURIComponent
decodeURIComponent AbortController TextDecoder Buffer.concat crypto.randomUUID`
  .split(/\s+/u)
  .filter((word) => word.length > 0);

const NODE_ERRORS = `ENOENT EACCES EPERM EEXIST EISDIR ENOTDIR ENOTEMPTY EMFILE ENFILE EBUSY EAGAIN
EADDRINUSE EADDRNOTAVAIL ECONNREFUSED ECONNRESET ECONNABORTED ETIMEDOUT EPIPE EHOSTUNREACH
ENETUNREACH ENOSPC EROFS EXDEV ELOOP ENAMETOOLONG ERR_MODULE_NOT_FOUND ERR_REQUIRE_ESM
ERR_UNKNOWN_FILE_EXTENSION ERR_INVALID_ARG_TYPE ERR_OUT_OF_RANGE ERR_STREAM_PREMATURE_CLOSE
ERR_SOCKET_TIMEOUT ERR_TLS_CERT_ALTNAME_INVALID SQLITE_BUSY SQLITE_LOCKED SQLITE_CORRUPT
SQLITE_FULL SIGKILL SIGTERM SIGSEGV OOMKilled CrashLoopBackOff ImagePullBackOff`
  .split(/\s+/u)
  .filter((word) => word.length > 0);

const HTTP_STATUSES = [400, 401, 403, 404, 405, 408, 409, 410, 413, 415, 422, 425, 429, 500, 501, 502, 503, 504];

const VERBS = `parse load read write fetch build resolve validate render handle create update delete
get set use init format compute merge sync flush open close start stop watch apply check emit
encode decode serialize normalize migrate restore backup export import register dispatch
subscribe publish schedule retry cancel throttle debounce hydrate invalidate refresh prefetch
compile bundle transform sanitize escape`
  .split(/\s+/u)
  .filter((word) => word.length > 0);

const NOUNS = `Config Manifest Token Cache Session User Request Response Route Schema Query Index
Table Column Record Entry Event Message Channel Stream Buffer Output Input Format Parser Date
Time Zone Path File Folder Directory Package Version Release Branch Commit Review Change Update
Worker Queue Thread Process Container Image Volume Cluster Node Secret Permission Account Login
Cookie Header Body Field Value Option Setting Default Limit Timeout Retry Network Connection
Database Migration Backup Snapshot Fixture Mock Metric Trace Logger Signal Status Health Probe
Endpoint Gateway Proxy Registry Mirror Plugin Module Bundle Chunk Asset Import Export Type
Interface Class Method Argument Parameter Promise Callback Array Object List Hash Key
Certificate Domain Locale Unicode Line Width Height Size Order Layout Style Theme Color Font
Icon Button Dialog Modal Form Focus Shortcut Scroll Page Cursor Offset Window Screen Label
Ticket Issue Artifact Report Coverage Pipeline Workflow Job Step Stage Runner Lockfile Tag
Budget Quota Rate Batch Store Provider`
  .split(/\s+/u)
  .filter((word) => word.length > 0);

const CLASS_SUFFIXES = `Loader Manager Service Provider Factory Handler Client Store Error Builder Adapter
Resolver Validator Renderer Serializer Parser Watcher Scheduler Runner Reporter Controller
Repository Registry Context Options State Result Event Listener Cache`
  .split(/\s+/u)
  .filter((word) => word.length > 0);

const CONFIG_PREFIXES = `max min default base root local remote cached pending retry initial current
previous last next allowed blocked enable disable strict`
  .split(/\s+/u)
  .filter((word) => word.length > 0);

const ENGLISH_SUFFIXES = ['s', 'ed', 'ing', 'er', 'able', 'less', 'ness', 'ly', 'ment', 'ful'];
const ENGLISH_PREFIXES = ['re', 'un', 'pre', 'over', 'sub', 'auto', 'multi', 'non'];

const lowerFirst = (word: string): string => word[0]!.toLowerCase() + word.slice(1);

/**
 * Every vocabulary entry, most frequent first. Entries are what a writer types (`package.json`,
 * `HTTP 429`, `parseConfig`); sameness later splits them into its own words.
 */
function buildVocabulary(): string[] {
  const next = seededRandom(20_000);
  const head = shuffled(next, ENGLISH);
  const names = shuffled(next, [...TOOLS, ...FILES, ...REAL_FUNCTIONS, ...NODE_ERRORS, ...HTTP_STATUSES.map((s) => `HTTP ${s}`)]);
  const tail: string[] = [];
  for (const verb of VERBS) for (const noun of NOUNS) tail.push(`${verb}${noun}`);
  for (const noun of NOUNS) for (const suffix of CLASS_SUFFIXES) tail.push(`${noun}${suffix}`);
  for (const prefix of CONFIG_PREFIXES) for (const noun of NOUNS) tail.push(`${prefix}${noun}`);
  for (const word of ENGLISH.filter((w) => w.length > 3 && !w.includes('-'))) {
    for (const suffix of ENGLISH_SUFFIXES) tail.push(`${word}${suffix}`);
    for (const prefix of ENGLISH_PREFIXES) tail.push(`${prefix}${word}`);
  }
  for (let code = 1; code <= 799; code++) tail.push(`E${String(code).padStart(4, '0')}`); // rustc
  for (let code = 1000; code < 8000; code += 3) tail.push(`TS${code}`); // tsc
  for (const noun of NOUNS) tail.push(`use${noun}`, `${lowerFirst(noun)}.ts`, `${lowerFirst(noun)}_test.go`);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const entry of [...head, ...names, ...shuffled(next, tail)]) {
    const key = entry.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(entry);
  }
  return out;
}

/** The vocabulary, most frequent first. */
export const VOCABULARY: readonly string[] = buildVocabulary();

/** Cumulative Zipf weights (exponent 1) over {@link VOCABULARY}. */
const CUMULATIVE: Float64Array = (() => {
  const out = new Float64Array(VOCABULARY.length);
  let total = 0;
  for (let rank = 1; rank <= VOCABULARY.length; rank++) out[rank - 1] = total += 1 / rank;
  for (let i = 0; i < out.length; i++) out[i]! /= total;
  return out;
})();

function zipfEntry(next: Random): string {
  const u = next();
  let lo = 0;
  let hi = CUMULATIVE.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (CUMULATIVE[mid]! < u) lo = mid + 1;
    else hi = mid;
  }
  return VOCABULARY[lo]!;
}

/** Short words sameness drops: they make texts read like sentences and change no match. */
const FILLER = ['the', 'a', 'to', 'in', 'of', 'and', 'for', 'on', 'it', 'is', 'as', 'by', 'or', 'be', 'at', 'if', 'so'];
const NEGATIONS = ['not', 'never', "don't", "isn't", 'without', 'no'];
const UNITS = ['days', 'minutes', 'seconds', 'ms', 'MB', 'GB', 'retries', 'workers', 'lines', 'percent'];
const PUNCTUATION = ['.', '', '!', ';', ' —'];

/** Fewest and most words (filler included) of a generated text, as the issue asks. */
export const MIN_TEXT_WORDS = 8;
export const MAX_TEXT_WORDS = 30;
/** Share of proposals that reword an earlier one. */
export const REWORDING_SHARE = 0.3;
/** Share of new texts that carry a negation, and that carry a number. */
const NEGATED_SHARE = 0.07;
const NUMBER_SHARE = 0.2;
/** The screen refuses longer texts (`max_text`); generated ones stay under it. */
const MAX_TEXT_CHARS = 380;

function number(next: Random): string {
  const value = pick(next, [1, 2, 3, 5, 10, 15, 20, 30, 60, 90, 100, 250, 500, 1000, 3000, 8080, 5432]);
  return next() < 0.6 ? `${value} ${pick(next, UNITS)}` : `v${1 + Math.floor(next() * 22)}.${Math.floor(next() * 12)}`;
}

function sentenceOf(words: string[], end: string): string {
  let text = words.join(' ').split(' ').slice(0, MAX_TEXT_WORDS).join(' ');
  while (text.length > MAX_TEXT_CHARS) text = text.slice(0, text.lastIndexOf(' '));
  return `${text[0]!.toUpperCase()}${text.slice(1)}${end}`;
}

/** A new learning-like text: 8–30 words, Zipf-drawn, filler between, sometimes a number or a negation. */
export function newText(next: Random): string {
  const length = MIN_TEXT_WORDS + Math.floor(next() * (MAX_TEXT_WORDS - MIN_TEXT_WORDS + 1));
  const words: string[] = [];
  while (words.length < length) words.push(next() < 0.3 ? pick(next, FILLER) : zipfEntry(next));
  if (next() < NUMBER_SHARE) words.splice(1 + Math.floor(next() * (words.length - 1)), 1, number(next));
  if (next() < NEGATED_SHARE) words.splice(1 + Math.floor(next() * (words.length - 1)), 0, pick(next, NEGATIONS));
  return sentenceOf(words, pick(next, PUNCTUATION));
}

/** An earlier text said again: a word or two dropped, added or swapped, other punctuation or case. */
export function reworded(next: Random, text: string): string {
  const words = text.replace(/[.!;—]+$/u, '').trim().split(/\s+/u);
  const edits = 1 + Math.floor(next() * 2);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(next() * words.length);
    const kind = next();
    if (kind < 0.3 && words.length > MIN_TEXT_WORDS) words.splice(at, 1);
    else if (kind < 0.6 && words.length < MAX_TEXT_WORDS) words.splice(at, 0, next() < 0.5 ? pick(next, FILLER) : zipfEntry(next));
    else if (kind < 0.9 && at + 1 < words.length) [words[at], words[at + 1]] = [words[at + 1]!, words[at]!];
    else words[at] = words[at]!.toUpperCase();
  }
  return sentenceOf(words, pick(next, PUNCTUATION));
}

/**
 * A stream of proposal texts for several agents: each is new, or (30%) a rewording of one the
 * same agent proposed earlier — the way an agent rediscovers or echoes what it already said.
 * `remember` seeds an agent's past (a ledger filled before the stream starts).
 */
export class ProposalTexts {
  private readonly next: Random;
  private readonly past = new Map<string, string[]>();

  constructor(seed: number) {
    this.next = seededRandom(seed);
  }

  remember(agent: string, text: string): void {
    let list = this.past.get(agent);
    if (!list) this.past.set(agent, (list = []));
    list.push(text);
  }

  text(agent: string): string {
    const past = this.past.get(agent);
    const text = past && past.length > 0 && this.next() < REWORDING_SHARE ? reworded(this.next, pick(this.next, past)) : newText(this.next);
    this.remember(agent, text);
    return text;
  }
}

/** Shares of event kinds; a run event is a start or a finish, so runs are about half of them. */
export interface EventShares {
  run: number;
  proposal: number;
  help: number;
}

export const DEFAULT_SHARES: EventShares = { run: 0.6, proposal: 0.3, help: 0.1 };

export interface FactorySpec {
  events: number;
  agents: number;
  days: number;
  seed: number;
  shares?: EventShares;
  /** The UTC day of the last day file (YYYY-MM-DD); default today, so that sweeps keep it all. */
  lastDay?: string;
  /** Agent names; default `agent-01`…; given when a case needs one agent it filled already. */
  agentNames?: readonly string[];
  /** Texts to reword from, seeded into the stream (what a ledger filled before already holds). */
  texts?: ProposalTexts;
}

export interface GeneratedFactory {
  dir: string;
  events: number;
  runs: number;
  proposals: number;
  help: number;
  bytes: number;
  files: string[];
}

/** Most learnings given to one run (the default `max_per_run`). */
const MAX_GIVEN = 25;
/** Made-up learning ids an agent's runs are given come from a pool that turns over slowly, as the active set does. */
const GIVEN_POOL = 40;
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** Lines buffered per day file before they are appended. */
const FLUSH_LINES = 5000;
const DAY_MS = 86_400_000;

function fakeLearningId(next: Random): string {
  let id = 'lrn_';
  for (let i = 0; i < 26; i++) id += CROCKFORD[Math.floor(next() * 32)];
  return id;
}

export function agentNames(count: number): string[] {
  return Array.from({ length: count }, (_, i) => `agent-${String(i + 1).padStart(2, '0')}`);
}

function todayUtc(): string {
  return new Date().toISOString().slice(0, 10);
}

/**
 * Writes `spec.events` valid event lines into `dir/events/YYYY-MM-DD.jsonl`, spread evenly over
 * `spec.days` day files ending on `spec.lastDay`. Runs start and finish (at most one open run
 * per agent, 0–6 proposals and now and then a help request while it is open, 0–25 learnings
 * given); proposals come from one {@link ProposalTexts} stream. Every line is what
 * `serializeEvent` writes, so it parses.
 *
 * The given ids are made up: a history written before any ledger cannot know the ids the Desk
 * will give its learnings (random ULIDs), so a ledger that reads these files as they are links
 * its runs to nothing. How many a run is given is the seeded choice; {@link withGivenLearnings}
 * puts real ids in their place as a factory grows (the harness's `growLedger`).
 */
export function generateFactory(dir: string, spec: FactorySpec): GeneratedFactory {
  const next = seededRandom(spec.seed);
  const shares = spec.shares ?? DEFAULT_SHARES;
  const names = spec.agentNames ?? agentNames(spec.agents);
  const texts = spec.texts ?? new ProposalTexts(spec.seed + 1);
  const eventsDir = path.join(dir, 'events');
  fs.mkdirSync(eventsDir, { recursive: true });
  const first = Date.parse(`${spec.lastDay ?? todayUtc()}T00:00:00.000Z`) - (spec.days - 1) * DAY_MS;
  const step = (spec.days * DAY_MS) / Math.max(1, spec.events);
  const pools = new Map(names.map((agent) => [agent, Array.from({ length: GIVEN_POOL }, () => fakeLearningId(next))]));
  const open = new Map<string, { run: string; chain: string }>();
  const out: GeneratedFactory = { dir, events: 0, runs: 0, proposals: 0, help: 0, bytes: 0, files: [] };
  let file = '';
  let buffered: string[] = [];
  const flush = (): void => {
    if (buffered.length === 0) return;
    const chunk = `${buffered.join('\n')}\n`;
    fs.appendFileSync(path.join(eventsDir, file), chunk);
    out.bytes += Buffer.byteLength(chunk);
    buffered = [];
  };
  const write = (event: FactoryEvent, at: number): void => {
    const name = `${new Date(at).toISOString().slice(0, 10)}.jsonl`;
    if (name !== file) {
      flush();
      file = name;
      out.files.push(name);
    }
    buffered.push(serializeEvent(event));
    if (buffered.length >= FLUSH_LINES) flush();
    out.events++;
  };
  for (let i = 0; i < spec.events; i++) {
    const at = Math.floor(first + i * step);
    const iso = new Date(at).toISOString();
    const u = next() * (shares.run + shares.proposal + shares.help);
    const running = [...open.keys()];
    if (u < shares.run) {
      const idle = names.filter((agent) => !open.has(agent));
      if (running.length === 0 || (idle.length > 0 && next() < 0.5)) {
        const agent = pick(next, idle);
        const pool = pools.get(agent)!;
        pool[Math.floor(next() * GIVEN_POOL)] = fakeLearningId(next);
        const given = pool.slice(0, Math.floor(next() * (MAX_GIVEN + 1)));
        const ids = { run: `run-${spec.seed}-${i}`, chain: `chain-${agent}-${Math.floor(i / 1000)}` };
        open.set(agent, ids);
        out.runs++;
        write({ type: 'run.started', at: iso, ...ids, agent, workflow: 'build', flags: { publish: next() < 0.2 }, routes: ['main'], learnings: given }, at);
      } else {
        const agent = pick(next, running);
        const { run } = open.get(agent)!;
        open.delete(agent);
        write({ type: 'run.finished', at: iso, run, agent, outcome: pick(next, RUN_OUTCOMES) }, at);
      }
    } else if (u < shares.run + shares.proposal) {
      const agent = running.length > 0 && next() < 0.9 ? pick(next, running) : pick(next, names);
      const run = open.get(agent)?.run;
      out.proposals++;
      write({ type: 'learning.proposed', at: iso, agent, text: texts.text(agent), impact: pick(next, IMPACTS), ...(run ? { run } : {}) }, at);
    } else {
      const agent = running.length > 0 ? pick(next, running) : pick(next, names);
      const ids = open.get(agent) ?? { run: `run-${spec.seed}-${i}-orphan`, chain: `chain-${agent}-orphan` };
      const category = next() < 0.8 ? pick(next, HELP_CATEGORIES) : undefined;
      out.help++;
      write(
        { type: 'help.requested', at: iso, id: `help-${spec.seed}-${i}`, agent, ...ids, fatal: next() < 0.3, question: newText(next), ...(category ? { category } : {}) },
        at,
      );
    }
  }
  flush();
  return out;
}

/** How `serializeEvent` begins a run's start: its type is its first field. */
const RUN_STARTED_LINE = '{"type":"run.started",';

type RunStarted = Extract<FactoryEvent, { type: 'run.started' }>;

/**
 * `text` (event lines) with each run's given ids replaced by the first as many of `given(agent)`,
 * or all of them when the agent has fewer: what the Tower gives a run is its agent's learnings
 * file, in order, and the made-up list {@link generateFactory} wrote only says how many.
 */
export function withGivenLearnings(text: string, given: (agent: string) => readonly string[]): string {
  return text
    .split('\n')
    .map((line) => {
      if (!line.startsWith(RUN_STARTED_LINE)) return line;
      const event = JSON.parse(line) as RunStarted;
      return serializeEvent({ ...event, learnings: given(event.agent).slice(0, event.learnings.length) });
    })
    .join('\n');
}
