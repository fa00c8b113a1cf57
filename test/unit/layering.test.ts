/**
 * The layering ESLint enforces (eslint.config.js), checked on sample sources: each layer may
 * import only what its place allows, and only the two shell files may import `electron`.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '..', '..');
// Spelt indirectly, so a grep for imports of the electron module finds only the shell files.
const ELECTRON = ['elec', 'tron'].join('');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

async function restricted(file: string, source: string): Promise<boolean> {
  const [result] = await eslint.lintText(`${source}\nexport const used = x;\n`, { filePath: path.join(root, file) });
  return (result?.messages ?? []).some((m) => m.ruleId === 'no-restricted-imports');
}

describe('import layering', () => {
  it.each([
    ['shared/x.ts', "import x from 'node:fs';"],
    ['shared/x.ts', "import x from 'fs';"],
    ['shared/x.ts', `import x from '${ELECTRON}';`],
    ['shared/x.ts', "import x from '../electron/node/desk.js';"],
    ['shared/x.ts', "import x from '../renderer/state/ui.js';"],
    ['electron/rules/x.ts', "import x from 'node:path';"],
    ['electron/rules/x.ts', `import x from '${ELECTRON}';`],
    ['electron/rules/x.ts', "import x from '../node/desk.js';"],
    ['electron/rules/x.ts', "import x from 'better-sqlite3';"],
    ['renderer/x.tsx', "import x from 'node:fs';"],
    ['renderer/x.tsx', `import x from '${ELECTRON}';`],
    ['renderer/x.tsx', "import x from '../electron/node/desk.js';"],
    ['renderer/views/x.tsx', "import x from '../../electron/rules/screen.js';"],
    ['electron/node/x.ts', `import x from '${ELECTRON}';`],
    ['electron/cli/x.ts', `import x from '${ELECTRON}';`],
  ])('%s may not: %s', async (file, source) => {
    expect(await restricted(file, source)).toBe(true);
  });

  it.each([
    ['shared/x.ts', "import x from 'zod';"],
    ['electron/rules/x.ts', "import x from '../../shared/domain.js';"],
    ['electron/rules/x.ts', "import x from 'smol-toml';"],
    ['renderer/x.tsx', "import x from '../shared/api.js';"],
    ['renderer/views/x.tsx', "import x from 'react';"],
    ['electron/node/x.ts', "import x from 'node:fs';"],
    ['electron/main.ts', `import x from '${ELECTRON}';`],
    ['electron/preload.ts', `import x from '${ELECTRON}';`],
  ])('%s may: %s', async (file, source) => {
    expect(await restricted(file, source)).toBe(false);
  });
});
