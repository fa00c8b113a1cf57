// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/api.js';
import { App } from '../../renderer/App.js';
import { RESPONDER_KEY } from '../../renderer/state/responder.js';
import { FakeDesk, makeRequest } from './fakeDesk.js';
import { parseFlagOptions } from '../../electron/cli/flags.js';

function start(desk: FakeDesk) {
  window.location.hash = '#/needs';
  return render(<App api={desk} />);
}

beforeEach(() => {
  window.localStorage.clear();
});
afterEach(() => {
  cleanup();
});

describe('reply form', () => {
  it('shows what the new chain inherits and sends the reply, then who answered and the new chain', async () => {
    const desk = new FakeDesk();
    start(desk);
    const answer = await screen.findByLabelText('Answer (required)');
    expect(screen.getByText('publish=true, tier=gold')).toBeTruthy();
    expect(screen.getByText('release')).toBeTruthy();
    const send = screen.getByRole('button', { name: 'Send reply' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    fireEvent.change(answer, { target: { value: 'It is in the vault under deploy/.' } });
    expect(send.disabled).toBe(false);
    fireEvent.click(send);
    expect(await screen.findByText(/Answered by/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'chain_100' }).getAttribute('href')).toBe('#/runs?chain=chain_100');
    const reply = desk.calls.find((c) => c.channel === 'help.reply')!.input as Record<string, unknown>;
    expect(reply).toEqual({ id: 'help_1', answer: 'It is in the vault under deploy/.', by: 'osuser' });
  });

  it('refuses Send until workflow and flags are stated when the flags are unknown', async () => {
    const desk = new FakeDesk({ requests: [makeRequest({ workflow: null, flags: null, routes: null })] });
    start(desk);
    const answer = await screen.findByLabelText('Answer (required)');
    fireEvent.change(answer, { target: { value: 'Go ahead.' } });
    const send = screen.getByRole('button', { name: 'Send reply' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    expect(screen.getByText(/flags are unknown, so the new chain cannot inherit them/)).toBeTruthy();

    // Submitting anyway (Ctrl+Enter) is refused with the explanation, and nothing is sent.
    fireEvent.keyDown(answer, { key: 'Enter', ctrlKey: true });
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(desk.calls.some((c) => c.channel === 'help.reply')).toBe(false);

    fireEvent.change(screen.getByLabelText('Workflow (required)'), { target: { value: 'release' } });
    expect(send.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText(/Flags, one key=value per line/), { target: { value: 'publish=false\nretries=2' } });
    expect(send.disabled).toBe(false);
    fireEvent.click(send);
    await screen.findByText(/Answered by/);
    const reply = desk.calls.find((c) => c.channel === 'help.reply')!.input as Record<string, unknown>;
    expect(reply.workflow).toBe('release');
    expect(reply.flags).toEqual({ publish: false, retries: 2 });
  });

  it('sends the same flags from the form as the CLI reads from the same key=value text', async () => {
    const typed = ['version=1.10', 'big=12345678901234567890', 'rate=1.5', 'publish=true'];
    const desk = new FakeDesk({ requests: [makeRequest({ workflow: null, flags: null, routes: null })] });
    start(desk);
    fireEvent.change(await screen.findByLabelText('Answer (required)'), { target: { value: 'Go ahead.' } });
    fireEvent.change(screen.getByLabelText('Workflow (required)'), { target: { value: 'release' } });
    fireEvent.change(screen.getByLabelText(/Flags, one key=value per line/), { target: { value: typed.join('\n') } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    await screen.findByText(/Answered by/);
    const reply = desk.calls.find((c) => c.channel === 'help.reply')!.input as Record<string, unknown>;
    expect(reply.flags).toEqual({ version: '1.10', big: '12345678901234567890', rate: 1.5, publish: true });
    expect(reply.flags).toEqual(parseFlagOptions(typed));
  });

  it('refuses a flag given twice in the form, naming the key, as the CLI does', async () => {
    const desk = new FakeDesk({ requests: [makeRequest({ workflow: null, flags: null, routes: null })] });
    start(desk);
    fireEvent.change(await screen.findByLabelText('Answer (required)'), { target: { value: 'Go ahead.' } });
    fireEvent.change(screen.getByLabelText('Workflow (required)'), { target: { value: 'release' } });
    fireEvent.change(screen.getByLabelText(/Flags, one key=value per line/), { target: { value: 'publish=false\npublish=true' } });
    const send = screen.getByRole('button', { name: 'Send reply' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    expect(screen.getByText(/the flag "publish" is given more than once/)).toBeTruthy();
    expect(() => parseFlagOptions(['publish=false', 'publish=true'])).toThrow(/the flag "publish" is given more than once/);
    expect(desk.calls.some((c) => c.channel === 'help.reply')).toBe(false);
  });

  it('answers a legacy request whose workflow takes no flags once that is stated explicitly', async () => {
    const desk = new FakeDesk({ requests: [makeRequest({ workflow: null, flags: null, routes: null })] });
    start(desk);
    fireEvent.change(await screen.findByLabelText('Answer (required)'), { target: { value: 'Go ahead.' } });
    fireEvent.change(screen.getByLabelText('Workflow (required)'), { target: { value: 'nightly' } });
    const send = screen.getByRole('button', { name: 'Send reply' }) as HTMLButtonElement;
    // Workflow alone is not enough: an empty flag set must be a choice, not an omission.
    expect(send.disabled).toBe(true);
    expect(screen.getByText(/This workflow takes no flags/, { selector: 'p' })).toBeTruthy();

    const none = screen.getByRole('checkbox', { name: /This workflow takes no flags/ }) as HTMLInputElement;
    fireEvent.click(none);
    expect(none.checked).toBe(true);
    expect(send.disabled).toBe(false);

    // Ticking "no flags" and writing flags contradict each other: refused until one is cleared.
    const flags = screen.getByLabelText(/Flags, one key=value per line/);
    fireEvent.change(flags, { target: { value: 'publish=true' } });
    expect(send.disabled).toBe(true);
    expect(screen.getByText(/clear one of the two/)).toBeTruthy();
    fireEvent.change(flags, { target: { value: '' } });
    expect(send.disabled).toBe(false);

    // Without the workflow, the no-flags choice alone does not let it go either.
    fireEvent.change(screen.getByLabelText('Workflow (required)'), { target: { value: ' ' } });
    expect(send.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Workflow (required)'), { target: { value: 'nightly' } });

    fireEvent.click(send);
    await screen.findByText(/Answered by/);
    const reply = desk.calls.find((c) => c.channel === 'help.reply')!.input as Record<string, unknown>;
    expect(reply.workflow).toBe('nightly');
    expect(reply.flags).toEqual({});
  });

  it('remembers the responder name across remounts', async () => {
    const desk = new FakeDesk({ requests: [makeRequest(), makeRequest({ id: 'help_2', question: 'Second question?' })] });
    const first = start(desk);
    const name = (await screen.findByLabelText('Your name')) as HTMLInputElement;
    expect(name.value).toBe('osuser');
    fireEvent.change(name, { target: { value: 'Ada' } });
    fireEvent.change(screen.getByLabelText('Answer (required)'), { target: { value: 'Yes.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    await screen.findByText(/Answered by/);
    expect(window.localStorage.getItem(RESPONDER_KEY)).toBe('Ada');
    first.unmount();

    start(desk);
    const again = (await screen.findByLabelText('Your name')) as HTMLInputElement;
    expect(again.value).toBe('Ada');
  });

  it('shows an error from the Desk in place and keeps the typed answer', async () => {
    const desk = new FakeDesk();
    desk.failNext.set('help.reply', new ApiError('refused', 'already answered by Grace at 2026-01-02T10:30:00Z'));
    start(desk);
    const answer = (await screen.findByLabelText('Answer (required)')) as HTMLTextAreaElement;
    fireEvent.change(answer, { target: { value: 'My carefully typed answer' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('already answered by Grace');
    expect((screen.getByLabelText('Answer (required)') as HTMLTextAreaElement).value).toBe('My carefully typed answer');
  });

  it('keeps a half-typed reply when the ledger changes', async () => {
    const desk = new FakeDesk();
    start(desk);
    const answer = (await screen.findByLabelText('Answer (required)')) as HTMLTextAreaElement;
    fireEvent.change(answer, { target: { value: 'half typed' } });
    desk.requests = [...desk.requests, makeRequest({ id: 'help_9', fatal: false, awaiting_human: false, question: 'New one' })];
    desk.emit('ledger.changed', { reason: 'ingest' });
    await screen.findByText('New one');
    expect((screen.getByLabelText('Answer (required)') as HTMLTextAreaElement).value).toBe('half typed');
  });

  it('resolves without an answer only after confirming', async () => {
    const desk = new FakeDesk();
    start(desk);
    fireEvent.click(await screen.findByRole('button', { name: 'Resolve without answer…' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(desk.calls.some((c) => c.channel === 'help.resolve')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Resolve' }));
    expect(await screen.findByText(/Resolved without an answer by/)).toBeTruthy();
  });
});
