/** The window opens a folder that is not a factory yet only once the operator confirms it. */
import fs from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { dispatch, type Envelope } from '../../shared/api.js';
import { Desk } from '../../electron/node/desk.js';
import { proposed } from '../support/events.js';
import { appendEvents, tempFactory } from '../support/factory.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function deskOn(chosen: string | null = null) {
  const current = tempFactory('layover-open-');
  cleanups.push(current.remove);
  appendEvents(current.dir, proposed({ at: '2026-11-20T08:00:00.000Z', agent: 'builder', text: 'the docs site builds with mkdocs' }));
  const desk = await Desk.open(current.dir, { host: 'browser', osUser: 'tester', watch: false, chooseFolder: async () => chosen });
  cleanups.push(() => desk.close());
  const call = (channel: string, input: unknown): Promise<Envelope> => dispatch(desk.handlers, channel, input);
  return { current: current.dir, call };
}

function emptyFolder(): string {
  const folder = tempFactory('layover-plain-');
  cleanups.push(folder.remove);
  return folder.dir;
}

it('factory.open on a folder that is not a factory yet asks first (needs_confirmation), changes nothing, and opens it once create is confirmed', async () => {
  const plain = emptyFolder();
  const { current, call } = await deskOn();
  const asked = await call('factory.open', { path: plain });
  expect(asked).toEqual({
    ok: false,
    error: { code: 'needs_confirmation', message: `${plain} is not a factory yet (no events/, layover.toml or .layover/ in it). Make it a new factory?` },
  });
  expect(fs.readdirSync(plain)).toEqual([]);
  expect(await call('desk.info', {})).toMatchObject({ ok: true, value: { factory: current } });
  const opened = await call('factory.open', { path: plain, create: true });
  expect(opened).toMatchObject({ ok: true, value: { factory: plain, ledger_problem: null } });
});

it('a folder chosen in the native dialog that is not a factory yet is asked about too, and create confirms the folder just chosen', async () => {
  const plain = emptyFolder();
  const { call } = await deskOn(plain);
  expect(await call('factory.open', {})).toMatchObject({ ok: false, error: { code: 'needs_confirmation' } });
  expect(fs.readdirSync(plain)).toEqual([]);
  expect(await call('factory.open', { create: true })).toMatchObject({ ok: true, value: { factory: plain } });
});
