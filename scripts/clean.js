// Empties dist/ before a build, so files of deleted sources do not linger in it.
import fs from 'node:fs';

fs.rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });
