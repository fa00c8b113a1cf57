/**
 * The attention rules both hosts use (shared/attention.ts): the fatal-request notification's words
 * and the count the title and dock badge show.
 */
import { describe, expect, it } from 'vitest';
import { APP_TITLE, NOTIFICATION_BODY_CHARS, attentionTitle, fatalNotification, openFatalCount } from '../../shared/attention.js';

describe('the fatal-request notification', () => {
  it('names the agent that needs you in the title and gives its question as the body', () => {
    expect(fatalNotification({ agent: 'builder', question: 'Which key signs the release?' })).toEqual({
      title: 'builder needs you',
      body: 'Which key signs the release?',
    });
  });

  it('keeps a question of exactly the body limit whole', () => {
    const question = 'q'.repeat(NOTIFICATION_BODY_CHARS);
    expect(fatalNotification({ agent: 'a', question }).body).toBe(question);
  });

  it('cuts a longer question to the body limit, ending in an ellipsis so the cut shows', () => {
    const question = `${'q'.repeat(NOTIFICATION_BODY_CHARS)}tail`;
    const { body } = fatalNotification({ agent: 'a', question });
    expect(body).toHaveLength(NOTIFICATION_BODY_CHARS);
    expect(body).toBe(`${'q'.repeat(NOTIFICATION_BODY_CHARS - 1)}…`);
  });
});

describe('the attention count', () => {
  it('counts the fatal requests that are still open, not the answered or resolved ones kept in view, nor the non-fatal', () => {
    const rows = [
      { fatal: true, state: 'open' },
      { fatal: true, state: 'open' },
      { fatal: true, state: 'answered' },
      { fatal: true, state: 'resolved' },
      { fatal: false, state: 'open' },
    ] as const;
    expect(openFatalCount(rows)).toBe(2);
  });

  it('puts the count before the app name in the title while any wait, and the bare name when none do', () => {
    expect(attentionTitle(3)).toBe(`(3) ${APP_TITLE}`);
    expect(attentionTitle(0)).toBe(APP_TITLE);
  });
});
