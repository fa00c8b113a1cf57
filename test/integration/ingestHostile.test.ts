import { afterEach, describe, expect, it } from 'vitest';
import { TestFactory } from '../support/testFactory.js';

let factories: TestFactory[] = [];
afterEach(() => {
  for (const f of factories) f.remove();
  factories = [];
});
function factory(): TestFactory {
  const f = new TestFactory();
  factories.push(f);
  return f;
}

const GOOD = (n: number) => `Keep the release checklist item ${n} in the repository wiki up to date.`;

describe('malformed and hostile event lines', () => {
  it('are refused with file, line and reason, and the lines after them are applied', async () => {
    const f = factory();
    f.propose('builder', GOOD(1)); // line 1
    f.raw('{"type": "learning.proposed", "agent": "builder", "text": \n'); // 2: bad JSON
    f.raw(Buffer.concat([Buffer.from('{"type":"learning.proposed","at":"2026-03-01T09:00:00Z","agent":"builder","impact":"low","text":"caf'), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')])); // 3: invalid UTF-8
    f.raw(`{"type":"learning.proposed","at":"2026-03-01T09:00:00Z","agent":"builder","impact":"low","text":"nul\u0000byte here in text"}\n`); // 4: NUL
    f.raw('{"type":"run.started","at":"2026-03-01T09:00:00Z","run":"r_p","agent":"builder","chain":"c","workflow":"w","flags":{"__proto__":{"admin":true}},"routes":[],"learnings":[]}\n'); // 5: __proto__
    f.propose('../etc', 'Overwrite the passwd file with something nicer.'); // 6: bad agent
    f.raw(`{"type":"learning.proposed","at":"2026-03-01T09:00:00Z","agent":"builder","impact":"low","text":"${'x'.repeat(1024 * 1024)}"}\n`); // 7: 1 MB
    f.event({ type: 'help.requested', id: 'h1', agent: 'builder', run: 'r', chain: 'c', fatal: true, question: 'Which token?', category: 'urgent' }); // 8
    f.event({ type: 'help.requested', id: 'h2', agent: 'builder', run: 'r', chain: 'c', fatal: false, question: 'Which token?' }); // 9 ok
    f.event({ type: 'help.requested', id: 'h2', agent: 'builder', run: 'r', chain: 'c', fatal: false, question: 'Again?' }); // 10 dup
    f.event({ type: 'run.finished', run: 'never_started', agent: 'builder', outcome: 'succeeded' }); // 11
    f.event({ type: 'something.else' }); // 12
    f.propose('builder', GOOD(2)); // 13
    const result = await f.ingest();
    expect(result.applied).toBe(3);
    expect(result.refused.map((r) => r.line)).toEqual([2, 3, 4, 5, 6, 7, 8, 10, 11, 12]);
    for (const r of result.refused) {
      expect(r.file).toBe('events/2026-03-01.jsonl');
      expect(r.reason.length).toBeGreaterThan(5);
    }
    const reasons = result.refused.map((r) => r.reason).join('\n');
    expect(reasons).toMatch(/UTF-8/);
    expect(reasons).toMatch(/64 KiB/);
    expect(reasons).toMatch(/access, clarification, decision, environment, external, other/);
    expect(reasons).toMatch(/duplicate/);
    expect((await f.learnings()).map((l) => l.text).sort()).toEqual([GOOD(1), GOOD(2)]);
    expect(({} as Record<string, unknown>).admin).toBeUndefined();
    // Nothing is read twice.
    expect(await f.ingest()).toMatchObject({ applied: 0, refused: [] });
  });

  it('a partial last line waits for its newline', async () => {
    const f = factory();
    f.propose('builder', GOOD(1));
    const line = JSON.stringify({ type: 'learning.proposed', at: '2026-03-01T10:00:00Z', agent: 'builder', impact: 'low', text: GOOD(2) });
    f.raw(line.slice(0, 40));
    expect(await f.ingest()).toMatchObject({ applied: 1, refused: [] });
    f.raw(line.slice(40));
    expect(await f.ingest()).toMatchObject({ applied: 0, refused: [] });
    f.raw('\n');
    expect(await f.ingest()).toMatchObject({ applied: 1, refused: [] });
    expect(await f.learnings()).toHaveLength(2);
  });

  it('a duplicate run id is refused', async () => {
    const f = factory();
    f.start('builder', 'r1');
    f.start('builder', 'r1');
    const result = await f.ingest();
    expect(result.applied).toBe(1);
    expect(result.refused).toHaveLength(1);
    expect(result.refused[0]!.reason).toMatch(/duplicate run id/);
  });
});
