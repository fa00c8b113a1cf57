/** Every case of the benchmark, in the order they run (ingest first: at --quick its ledger is the shared one). */
import type { BenchCase } from '../harness.js';
import { catchUpCase } from './catchUp.js';
import { ingestCase } from './ingest.js';
import { matchCase } from './match.js';
import { memoryCase } from './memory.js';
import { onTopCase } from './onTop.js';
import { queryCase } from './query.js';
import { rejectSweepCase } from './rejectSweep.js';
import { sizeCase } from './size.js';
import { screenCase } from './screen.js';

export const CASES: readonly BenchCase[] = [ingestCase, matchCase, onTopCase, catchUpCase, queryCase, rejectSweepCase, memoryCase, sizeCase, screenCase];
