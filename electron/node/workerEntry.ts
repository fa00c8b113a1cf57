/**
 * Where a worker thread's code is, for the threads this folder starts (`ingestWorker`,
 * `screenWorker`). Built, it is the `.js` beside this file. Run from the TypeScript sources
 * (tests, `tsx`), a worker cannot load `.ts` by itself, so a small boot file registers tsx's
 * loader in the worker first (`workerBoot.mjs`, for development only) and then loads the entry.
 * Either way the worker finds what it was started with in `workerData.start`. `name` is relative
 * to this folder, or to the module `from` (the benchmark's ping thread).
 */
export function workerEntry<Start>(name: string, from?: string): { url: URL; workerData: (start: Start) => unknown } {
  // Through a variable: a bundler rewrites `new URL('…', import.meta.url)` written out as an asset's
  // address, which a worker cannot start from (the component tests' Vite did).
  const here = import.meta.url;
  from ??= here;
  if (from.endsWith('.ts')) {
    const entry = new URL(`./${name}.ts`, from).href;
    return { url: new URL('./workerBoot.mjs', here), workerData: (start) => ({ entry, start }) };
  }
  return { url: new URL(`./${name}.js`, from), workerData: (start) => ({ start }) };
}
