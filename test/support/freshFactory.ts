/**
 * A fresh factory folder for each test of a vitest file. Kept apart from `factory.ts`, which
 * imports nothing from vitest, so that the Playwright specs can use that module too.
 */
import { afterEach, beforeEach } from 'vitest';
import { tempFactory, type TempFactory } from './factory.js';

/**
 * A fresh factory folder for every test of the file, handed to `use` before each test and
 * deleted after it: `let factory: string; freshFactoryEachTest('x-', (dir) => (factory = dir));`
 */
export function freshFactoryEachTest(prefix: string, use: (dir: string) => void): void {
  let current: TempFactory | null = null;
  beforeEach(() => {
    current = tempFactory(prefix);
    use(current.dir);
  });
  afterEach(() => {
    current?.remove();
    current = null;
  });
}
