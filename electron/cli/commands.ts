/**
 * Every `layover-desk` command, in the order `--help` lists them. Each lives in its own module
 * under `commands/`; adding one is one import and one entry here.
 */
import type { Command } from './command.js';
import { backupCommand, backupsCommand, restoreCommand } from './commands/safety.js';
import { rebuildCommand } from './commands/rebuild.js';
import { sweepCommand } from './commands/sweep.js';
import { serveCommand } from './commands/serve.js';
import { helpRequestsCommand } from './commands/helpRequests.js';
import { replyCommand } from './commands/reply.js';
import { resolveCommand } from './commands/resolve.js';
import { chainsCommand } from './commands/chains.js';
import { askCommand } from './commands/ask.js';
import { ingestCommand } from './commands/ingest.js';
import { learningsCommand } from './commands/learnings.js';
import { keepCommand, rejectCommand, undoCommand } from './commands/decide.js';
import { runsCommand } from './commands/runs.js';
import { proposeCommand } from './commands/propose.js';
import { runFinishCommand, runStartCommand } from './commands/run.js';
import { demoCommand } from './commands/demo.js';
import { contextCommand } from './commands/context.js';
import { mcpCommand } from './commands/mcp.js';

export const COMMANDS: readonly Command[] = [
  serveCommand,
  ingestCommand,
  learningsCommand,
  rejectCommand,
  keepCommand,
  undoCommand,
  runsCommand,
  helpRequestsCommand,
  replyCommand,
  resolveCommand,
  chainsCommand,
  proposeCommand,
  askCommand,
  runStartCommand,
  runFinishCommand,
  contextCommand,
  mcpCommand,
  demoCommand,
  sweepCommand,
  backupCommand,
  backupsCommand,
  restoreCommand,
  rebuildCommand,
];
