/**
 * `layover-desk reject`, `keep` and `undo`: a person's decisions on learnings, from the terminal.
 */
import {
  FACTORY_OPTION,
  JSON_OPTION,
  Refusal,
  factoryTarget,
  flagOption,
  printJson,
  requiredOption,
  stringOption,
  type CliIo,
  type Command,
  type Options,
  type ParsedArgs,
} from '../command.js';
import { withLedger } from '../ledgerAccess.js';
import { decideLearnings, undoDecisions, type DecisionResult } from '../../node/store/decisions.js';
import { exportPending } from '../../node/exporter.js';
import type { Db } from '../../node/store/db.js';
import type { LearningOrigin } from '../../../shared/api.js';
import { stmt } from '../../node/store/statements.js';

const DECISION_OPTIONS: Options = { ...FACTORY_OPTION, ...JSON_OPTION, by: { type: 'string' } };

const COMMON_HELP = [
  '  --by NAME      who decides (required): recorded in the learning history',
  '  --json         print { changed, unchanged, missing }',
  '  --factory DIR  the factory (default: $LAYOVER_FACTORY, else the current folder)',
];

function ids(positionals: string[]): string[] {
  if (positionals.length === 0) throw new Refusal('name at least one learning id (lrn_...)');
  return positionals;
}

function missingRefusal(db: Db, wanted: string[]): void {
  const found = new Set(
    (stmt(db, 'SELECT id FROM learnings WHERE id IN (SELECT value FROM json_each(?))').all(JSON.stringify(wanted)) as { id: string }[]).map(
      (r) => r.id,
    ),
  );
  const missing = wanted.filter((id) => !found.has(id));
  if (missing.length > 0) throw new Refusal(`no learning has the id ${missing.join(', ')}; nothing was changed`);
}

/**
 * The origin `--run` or `--chain` names (docs/rules.md#a-persons-decisions), or undefined when
 * neither is given. One origin, and no ids beside it: a mix would leave it unclear what was meant.
 */
function originOption(args: ParsedArgs): LearningOrigin | undefined {
  const run = stringOption(args, 'run');
  const chain = stringOption(args, 'chain');
  if (run === undefined && chain === undefined) return undefined;
  if (run !== undefined && chain !== undefined) throw new Refusal('give --run or --chain, not both');
  if (args.positionals.length > 0) throw new Refusal(`give learning ids or --${run !== undefined ? 'run' : 'chain'}, not both`);
  return run !== undefined ? { run } : { chain: chain! };
}

interface Decision {
  /** The past tense printed for each learning changed: "rejected". */
  verb: string;
  /** Why a learning named was left as it was. */
  unchanged: string;
  decide(db: Db, wanted: string[], by: string, args: ParsedArgs): DecisionResult;
}

/**
 * What `reject`, `keep` and `undo` share: every id must exist (else nothing changes), the
 * decision is recorded with who made it, and the learnings files of the agents it touched are
 * re-written so their next runs see it.
 */
async function runDecision(args: ParsedArgs, io: CliIo, decision: Decision, origin?: LearningOrigin): Promise<void> {
  const by = requiredOption(args, 'by');
  const wanted = origin ? [] : ids(args.positionals);
  await withLedger(factoryTarget(args, io), io, ({ root, db, settings }) => {
    // An origin the ledger does not know is refused by the decision itself (store/decisions.ts).
    if (!origin) missingRefusal(db, wanted);
    const result = decision.decide(db, wanted, by, args);
    exportPending(db, root, settings.learnings.max_per_run);
    if (flagOption(args, 'json')) {
      printJson(io, { changed: result.changed, unchanged: result.unchanged, missing: result.missing });
      return;
    }
    for (const id of result.changed) io.stdout(`${decision.verb} ${id}\n`);
    for (const id of result.unchanged) io.stderr(`not changed: ${id} (${decision.unchanged})\n`);
  });
}

export const rejectCommand: Command = {
  name: ['reject'],
  summary: 'Reject learnings: never given to a run again, and a re-proposal is refused.',
  usage: 'reject --by NAME [--reason R] [--json] [--factory DIR] (ID... | --run RUN | --chain CHAIN)',
  help: [
    'Rejects one or many learnings in any state but rejected. A rejected learning is never',
    'given to a run and never deleted: it is what refuses the agent when it proposes the same',
    'claim again. `undo` takes a rejection back.',
    '',
    'By origin: --run RUN rejects every learning first proposed in that run, --chain CHAIN',
    'every learning first proposed in any run of that chain. Learnings the run only echoed or',
    'rediscovered are not of its origin and stay as they are.',
    '',
    'Options:',
    '  --reason R     why (shown in the history and to the operator)',
    '  --run RUN      reject the learnings run RUN discovered, instead of naming ids',
    '  --chain CHAIN  reject the learnings the runs of chain CHAIN discovered',
    ...COMMON_HELP,
  ].join('\n'),
  options: { ...DECISION_OPTIONS, reason: { type: 'string' }, run: { type: 'string' }, chain: { type: 'string' } },
  run: async (args, io) => {
    const origin = originOption(args);
    return runDecision(
      args,
      io,
      {
        verb: 'rejected',
        unchanged: 'already rejected',
        decide: (db, wanted, by) =>
          decideLearnings(db, 'reject', origin ? { origin } : { ids: wanted }, { by, reason: stringOption(args, 'reason'), now: new Date() }),
      },
      origin,
    );
  },
};

export const keepCommand: Command = {
  name: ['keep'],
  summary: 'Keep learnings: a provisional or lapsed learning becomes confirmed.',
  usage: 'keep --by NAME [--json] [--factory DIR] ID...',
  help: [
    'Confirms provisional or lapsed learnings by a person: they are given to every run of',
    'their agent and never expire. `undo` takes a keep back.',
    '',
    'Options:',
    ...COMMON_HELP,
  ].join('\n'),
  options: DECISION_OPTIONS,
  run: (args, io) =>
    runDecision(args, io, {
      verb: 'kept',
      unchanged: 'only a provisional or lapsed learning can be kept',
      decide: (db, wanted, by) => decideLearnings(db, 'keep', { ids: wanted }, { by, now: new Date() }),
    }),
};

export const undoCommand: Command = {
  name: ['undo'],
  summary: 'Undo the last rejection or keep of learnings.',
  usage: 'undo --by NAME [--json] [--factory DIR] ID...',
  help: [
    'Takes back the last rejection or keep of each learning named: it returns to exactly the',
    'state, runs left and decision fields it had before. The undo is in its history too.',
    '',
    'Options:',
    ...COMMON_HELP,
  ].join('\n'),
  options: DECISION_OPTIONS,
  run: (args, io) =>
    runDecision(args, io, {
      verb: 'undone',
      unchanged: 'no rejection or keep to undo',
      decide: (db, wanted, by) => undoDecisions(db, wanted, { by, now: new Date() }),
    }),
};
