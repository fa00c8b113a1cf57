#!/usr/bin/env node
// The `layover-desk` command: runs the built CLI (`npm run build` makes dist/; `npm ci` runs it).
import { existsSync } from 'node:fs';

const entry = new URL('../dist/main/electron/cli/main.js', import.meta.url);
if (!existsSync(entry)) {
  process.stderr.write('layover-desk: the app is not built yet (no dist/): run `npm run build` in its folder first\n');
  process.exit(1);
}
const { main } = await import(entry.href);
await main();
