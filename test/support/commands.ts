/** The commands of the CLI grouped by how they reach the ledger, each with the words it needs to get that far. */

/** The commands that open the ledger. */
export const LEDGER_COMMANDS: string[][] = [
  ['ingest'],
  ['learnings'],
  ['runs'],
  ['help-requests'],
  ['chains'],
  ['sweep'],
  ['backup'],
  ['reject', '--by', 'Ana', 'lrn_1'],
  ['keep', '--by', 'Ana', 'lrn_1'],
  ['undo', '--by', 'Ana', 'lrn_1'],
  ['reply', '--request', 'hlp_1', '--by', 'Ana', '--answer', 'yes'],
  ['resolve', '--request', 'hlp_1', '--by', 'Ana'],
];

/** The commands that only list what the ledger holds. */
export const LISTING_COMMANDS: string[][] = [['learnings'], ['runs'], ['help-requests'], ['chains']];

/** The agent side: they append events and only peek into the ledger. */
export const AGENT_COMMANDS: string[][] = [
  ['propose', '--agent', 'builder', 'Run the migrations before the integration test suite.'],
  ['ask', '--agent', 'builder', '--run', 'r1', '--chain', 'c1', 'Which token may I use?'],
  ['run', 'start', '--agent', 'builder', '--run', 'r1', '--chain', 'c1'],
  ['run', 'finish', '--agent', 'builder', '--run', 'r1', '--outcome', 'succeeded'],
];
