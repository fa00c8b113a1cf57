import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { screen } from '../../electron/rules/screen.js';
import { MIN_PROPOSALS_AHEAD, ScreenAhead } from '../../electron/node/screenAhead.js';
import { readCorpus } from '../support/screenCorpus.js';
import { blockThread } from '../support/blockThread.js';

const MAX_TEXT = 4000;
/** Every corpus line (attempts and ordinary ones), a few the length limit refuses, and one the screen passes without its blanks. */
const TEXTS = [...readCorpus().map((line) => line.text), 'x'.repeat(MAX_TEXT + 1), '   ', 'plain text of a learning', '  \tblanks around a learning are not part of it  '];

let ahead: ScreenAhead | null = null;
afterEach(() => ahead?.close());

describe('screening ahead on a helper thread (electron/node/screenAhead.ts)', () => {
  it('gives for every text exactly the answer of the screen run in place, answered by the helper thread', () => {
    ahead = new ScreenAhead();
    const batch = ahead.screenAll(TEXTS, MAX_TEXT);
    for (let waited = 0; batch.posted() < TEXTS.length && waited < 60_000; waited += 50) blockThread(50);
    const answers = TEXTS.map((_, i) => batch.result(i));
    expect(answers).toEqual(TEXTS.map((text) => screen(text, MAX_TEXT)));
    expect(batch.byHelper()).toBe(TEXTS.length);
  });

  it('gives the same answers when ingest asks at once, both threads screening side by side', () => {
    ahead = new ScreenAhead();
    const first = ahead.screenAll(TEXTS, MAX_TEXT);
    const answers = TEXTS.map((_, i) => first.result(i));
    const second = ahead.screenAll([...TEXTS].reverse(), MAX_TEXT);
    const reversed = TEXTS.map((_, i) => second.result(i));
    expect(answers).toEqual(TEXTS.map((text) => screen(text, MAX_TEXT)));
    expect(reversed).toEqual([...TEXTS].reverse().map((text) => screen(text, MAX_TEXT)));
  });

  it('changes no answer when the helper thread ends in the middle of a batch', () => {
    ahead = new ScreenAhead();
    const batch = ahead.screenAll(TEXTS, MAX_TEXT);
    blockThread(200);
    ahead.close();
    expect(TEXTS.map((_, i) => batch.result(i))).toEqual(TEXTS.map((text) => screen(text, MAX_TEXT)));
  });

  it('answers at once the texts the helper refused before it was ended, whose refusals went with it', () => {
    ahead = new ScreenAhead();
    const batch = ahead.screenAll(TEXTS, MAX_TEXT);
    for (let waited = 0; batch.posted() < TEXTS.length / 2 && waited < 60_000; waited += 10) blockThread(10);
    ahead.close();
    const expected = TEXTS.map((text) => screen(text, MAX_TEXT));
    // Well over a hundred of the texts the helper answered were refusals. Before, each cost the
    // second ingest waits for a helper's answer, so this test outlasted its time limit.
    expect(expected.slice(0, TEXTS.length / 2).filter((r) => !r.ok).length).toBeGreaterThan(100);
    expect(TEXTS.map((_, i) => batch.result(i))).toEqual(expected);
  });

  it('starts a helper again for the next large batch after one was ended, as the watcher keeps one across its ingests', async () => {
    ahead = new ScreenAhead();
    const first = ahead.screenAll(TEXTS, MAX_TEXT);
    for (let waited = 0; first.posted() < TEXTS.length && waited < 60_000; waited += 50) blockThread(50);
    ahead.close();
    await sleep(300); // the ended thread's exit is heard
    const second = ahead.screenAll(TEXTS, MAX_TEXT);
    for (let waited = 0; second.posted() < TEXTS.length && waited < 60_000; waited += 50) blockThread(50);
    expect(TEXTS.map((_, i) => second.result(i))).toEqual(TEXTS.map((text) => screen(text, MAX_TEXT)));
    expect(second.byHelper()).toBe(TEXTS.length);
  });

  it(`screens a batch of fewer than ${MIN_PROPOSALS_AHEAD} proposals in place, without a thread`, () => {
    ahead = new ScreenAhead();
    const few = TEXTS.slice(0, MIN_PROPOSALS_AHEAD - 1);
    const batch = ahead.screenAll(few, MAX_TEXT);
    blockThread(500);
    expect(few.map((_, i) => batch.result(i))).toEqual(few.map((text) => screen(text, MAX_TEXT)));
    expect(batch.byHelper()).toBe(0);
  });
});
