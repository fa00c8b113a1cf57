// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../renderer/App.js';
import { FakeDesk } from './fakeDesk.js';

afterEach(() => cleanup());

describe('Activity: refused proposals by rule', () => {
  it('lists each rule that refused proposals with its count, most refusals first as the ledger sends them', async () => {
    window.location.hash = '#/activity';
    const desk = new FakeDesk({
      refusals: [
        { rule: 'instruction_override', count: 12, last_at: '2026-01-02T10:00:00.000Z' },
        { rule: 'exfiltration', count: 3, last_at: '2026-01-02T09:00:00.000Z' },
        { rule: 'rejected_learning', count: 1, last_at: '2026-01-01T09:00:00.000Z' },
      ],
    });
    render(<App api={desk} />);
    const heading = await screen.findByRole('heading', { name: 'Refused proposals by rule' });
    const section = heading.parentElement!;
    const rows = await within(section).findAllByRole('row');
    const body = rows.slice(1).map((row) => [...row.querySelectorAll('td')].slice(0, 2).map((td) => td.textContent));
    expect(body).toEqual([
      ['instruction_override', '12'],
      ['exfiltration', '3'],
      ['rejected_learning', '1'],
    ]);
  });

  it('says so when no proposal has been refused', async () => {
    window.location.hash = '#/activity';
    render(<App api={new FakeDesk()} />);
    const heading = await screen.findByRole('heading', { name: 'Refused proposals by rule' });
    expect(heading.parentElement!.textContent).toContain('No proposal has been refused.');
  });
});
