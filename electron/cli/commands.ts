/**
 * Every `layover-desk` command, in the order `--help` lists them. Each lives in its own module
 * under `commands/`; adding one is one import and one entry here.
 */
import type { Command } from './command.js';

export const COMMANDS: readonly Command[] = [];
