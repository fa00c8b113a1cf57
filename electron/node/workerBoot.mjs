// Development only: runs a worker written in TypeScript from the sources (tests, tsx), where
// Node cannot load `.ts` by itself. It registers tsx's loader in the worker, then loads the
// worker's module. A built app starts the compiled `.js` directly and never loads this file
// (see workerEntry in ingestThread.ts).
import { register } from 'tsx/esm/api';
import { workerData } from 'node:worker_threads';

register();
await import(workerData.entry);
