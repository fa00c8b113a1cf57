/**
 * U+FFFD is a character like any other when the bytes on disk were valid UTF-8 (EF BF BD); only
 * bytes that do not decode are refused, and the decoder that reads the line (fatal) tells.
 */
import { afterEach, expect, it } from 'vitest';
import { queryLedger } from '../support/ledger.js';
import { TestFactory } from '../support/testFactory.js';

let factories: TestFactory[] = [];
afterEach(() => {
  for (const f of factories) f.remove();
  factories = [];
});

/** U+FFFD as it is written in UTF-8. */
const REPLACEMENT_CHARACTER_BYTES = Buffer.from([0xef, 0xbf, 0xbd]);

it('a genuine U+FFFD in a learning or a question is accepted, while bytes that are not UTF-8 are still refused', async () => {
  const f = new TestFactory();
  factories.push(f);
  const learning = '{"type":"learning.proposed","at":"2026-03-01T09:00:00Z","agent":"builder","impact":"low","text":"the build log prints ';
  f.raw(Buffer.concat([Buffer.from(learning), REPLACEMENT_CHARACTER_BYTES, Buffer.from(' where the locale is not UTF-8"}\n')]));
  const question = '{"type":"help.requested","at":"2026-03-01T09:01:00Z","id":"h1","agent":"builder","run":"r","chain":"c","fatal":false,"question":"the file name shows ';
  f.raw(Buffer.concat([Buffer.from(question), REPLACEMENT_CHARACTER_BYTES, Buffer.from(', which encoding is it?"}\n')]));
  f.raw(Buffer.concat([Buffer.from(learning), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]));
  const result = await f.ingest();
  expect(result.applied).toBe(2);
  expect(result.refused).toEqual([{ file: 'events/2026-03-01.jsonl', line: 3, reason: 'the line is not valid UTF-8' }]);
  expect((await f.learnings()).map((l) => l.text)).toEqual(['the build log prints \uFFFD where the locale is not UTF-8']);
  expect(queryLedger(f.dir, 'SELECT question FROM help_requests')).toEqual([{ question: 'the file name shows \uFFFD, which encoding is it?' }]);
});
