/** Runs the CLI from source (`node --import tsx electron/cli/run.ts ...`); tests spawn it. */
import { main } from './main.js';

await main();
