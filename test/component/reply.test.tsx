// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../renderer/App.js';
import { RESPONDER_KEY } from '../../renderer/state/responder.js';
import { parseFlagOptions } from '../../electron/cli/flags.js';
import { closeRealDesks, OS_USER, openRealDesk, WATCHER_WAIT_MS, type RealDesk } from './realDesk.js';

function start(desk: RealDesk) {
  window.location.hash = '#/needs';
  return render(<App api={desk.api} />);
}

/** A Desk with one open request from a release run allowed to publish (flags publish=true, tier=gold). */
const withRequest = () => openRealDesk({ prepare: (f) => void f.ask({ id: 'help_1' }) });

/** A Desk with one open request whose asking run the ledger never saw: its flags are unknown. */
const withUnknownFlags = () => openRealDesk({ prepare: (f) => f.askUnknown({ id: 'help_1' }) });

/** The request as the ledger holds it, and the chain a reply to it started. */
async function stored(desk: RealDesk, id = 'help_1') {
  return desk.call('help.detail', { id });
}

beforeEach(() => {
  window.localStorage.clear();
});
afterEach(async () => {
  cleanup();
  await closeRealDesks();
});

describe('reply form', () => {
  it('shows what the new chain inherits and sends the reply, then who answered and the new chain', async () => {
    const desk = await withRequest();
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
    const { request, continued } = await stored(desk);
    expect(request).toMatchObject({ state: 'answered', answer: 'It is in the vault under deploy/.', responder: OS_USER });
    expect(continued).toMatchObject({ workflow: 'release', flags: { publish: true, tier: 'gold' } });
    // The new chain is named under "Answered by" and in the request's detail, each a link to its runs.
    const links = await screen.findAllByRole('link', { name: request.continued_as! });
    expect(links.map((a) => a.getAttribute('href'))).toEqual([`#/runs?chain=${request.continued_as}`, `#/runs?chain=${request.continued_as}`]);
    expect(screen.getByText(/Answered by/).parentElement!.textContent).toContain(`New chain: ${request.continued_as}`);
  });

  it('refuses Send until workflow and flags are stated when the flags are unknown', async () => {
    const desk = await withUnknownFlags();
    start(desk);
    const answer = await screen.findByLabelText('Answer (required)');
    fireEvent.change(answer, { target: { value: 'Go ahead.' } });
    const send = screen.getByRole('button', { name: 'Send reply' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    expect(screen.getByText(/flags are unknown, so the new chain cannot inherit them/)).toBeTruthy();

    // Submitting anyway (Ctrl+Enter) is refused with the explanation, and nothing is sent.
    fireEvent.keyDown(answer, { key: 'Enter', ctrlKey: true });
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(desk.sent.some((c) => c.channel === 'help.reply')).toBe(false);
    expect((await stored(desk)).request.state).toBe('open');

    fireEvent.change(screen.getByLabelText('Workflow (required)'), { target: { value: 'release' } });
    expect(send.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText(/Flags, one key=value per line/), { target: { value: 'publish=false\nretries=2' } });
    expect(send.disabled).toBe(false);
    fireEvent.click(send);
    await screen.findByText(/Answered by/);
    expect((await stored(desk)).continued).toMatchObject({ workflow: 'release', flags: { publish: false, retries: 2 } });
  });

  it('sends the same flags from the form as the CLI reads from the same key=value text', async () => {
    const typed = ['version=1.10', 'big=12345678901234567890', 'rate=1.5', 'publish=true'];
    const desk = await withUnknownFlags();
    start(desk);
    fireEvent.change(await screen.findByLabelText('Answer (required)'), { target: { value: 'Go ahead.' } });
    fireEvent.change(screen.getByLabelText('Workflow (required)'), { target: { value: 'release' } });
    fireEvent.change(screen.getByLabelText(/Flags, one key=value per line/), { target: { value: typed.join('\n') } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    await screen.findByText(/Answered by/);
    const { continued } = await stored(desk);
    expect(continued!.flags).toEqual({ version: '1.10', big: '12345678901234567890', rate: 1.5, publish: true });
    expect(continued!.flags).toEqual(parseFlagOptions(typed));
  });

  it('refuses a flag given twice in the form, naming the key, as the CLI does', async () => {
    const desk = await withUnknownFlags();
    start(desk);
    fireEvent.change(await screen.findByLabelText('Answer (required)'), { target: { value: 'Go ahead.' } });
    fireEvent.change(screen.getByLabelText('Workflow (required)'), { target: { value: 'release' } });
    fireEvent.change(screen.getByLabelText(/Flags, one key=value per line/), { target: { value: 'publish=false\npublish=true' } });
    const send = screen.getByRole('button', { name: 'Send reply' }) as HTMLButtonElement;
    expect(send.disabled).toBe(true);
    expect(screen.getByText(/the flag "publish" is given more than once/)).toBeTruthy();
    expect(() => parseFlagOptions(['publish=false', 'publish=true'])).toThrow(/the flag "publish" is given more than once/);
    fireEvent.keyDown(screen.getByLabelText('Answer (required)'), { key: 'Enter', ctrlKey: true });
    expect(desk.sent.some((c) => c.channel === 'help.reply')).toBe(false);
    expect((await stored(desk)).request.state).toBe('open');
  });

  it('answers a legacy request whose workflow takes no flags once that is stated explicitly', async () => {
    const desk = await withUnknownFlags();
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
    expect((await stored(desk)).continued).toMatchObject({ workflow: 'nightly', flags: {} });
  });

  it('a reply is signed with the one Acting as name, the OS account until another is chosen, and the choice is remembered', async () => {
    const desk = await openRealDesk({
      prepare: (f) => {
        f.ask({ id: 'help_1' });
        f.ask({ id: 'help_2', question: 'Second question?' });
      },
    });
    const first = start(desk);
    expect(await screen.findByRole('button', { name: `Acting as ${OS_USER}` })).toBeTruthy();
    expect(screen.queryByLabelText('Your name')).toBeNull(); // the form has no name field of its own
    fireEvent.click(screen.getByRole('button', { name: 'change' }));
    const name = (await screen.findByLabelText('Your name')) as HTMLInputElement;
    expect(name.value).toBe(OS_USER);
    fireEvent.change(name, { target: { value: 'Ada' } });
    fireEvent.submit(name.closest('form')!);
    await screen.findByRole('button', { name: 'Acting as Ada' });
    expect(window.localStorage.getItem(RESPONDER_KEY)).toBe('Ada');
    fireEvent.change(screen.getByLabelText('Answer (required)'), { target: { value: 'Yes.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    await screen.findByText(/Answered by/);
    const answered = (await desk.call('help.list', {})).rows.filter((r) => r.state === 'answered');
    expect(answered.map((r) => r.responder)).toEqual(['Ada']);
    first.unmount();

    start(desk);
    expect(await screen.findByRole('button', { name: 'Acting as Ada' })).toBeTruthy();
    expect(screen.getByText('Replying as', { exact: false }).textContent).toContain('Ada');
  });

  it('shows an error from the Desk in place and keeps the typed answer', async () => {
    const desk = await withRequest();
    start(desk);
    const answer = (await screen.findByLabelText('Answer (required)')) as HTMLTextAreaElement;
    fireEvent.change(answer, { target: { value: 'My carefully typed answer' } });
    // Meanwhile Grace answers it from the command line.
    await desk.factory.ok('reply', '--request', 'help_1', '--by', 'Grace', '--answer', 'Use the staging key.');
    fireEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('already answered by Grace');
    expect((screen.getByLabelText('Answer (required)') as HTMLTextAreaElement).value).toBe('My carefully typed answer');
    expect((await stored(desk)).request).toMatchObject({ responder: 'Grace', answer: 'Use the staging key.' });
  });

  it('keeps a half-typed reply when the ledger changes', async () => {
    const desk = await withRequest();
    start(desk);
    const answer = (await screen.findByLabelText('Answer (required)')) as HTMLTextAreaElement;
    fireEvent.change(answer, { target: { value: 'half typed' } });
    // A new request arrives: the Desk's watcher takes it up and tells the window.
    desk.factory.ask({ id: 'help_9', fatal: false, question: 'New one' });
    await screen.findByText('New one', {}, { timeout: WATCHER_WAIT_MS });
    expect((screen.getByLabelText('Answer (required)') as HTMLTextAreaElement).value).toBe('half typed');
  });

  it('resolves without an answer only after confirming', async () => {
    const desk = await withRequest();
    start(desk);
    fireEvent.click(await screen.findByRole('button', { name: 'Resolve without answer…' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect((await stored(desk)).request.state).toBe('open');
    fireEvent.click(screen.getByRole('button', { name: 'Resolve' }));
    expect(await screen.findByText(/Resolved without an answer by/)).toBeTruthy();
    await waitFor(async () => expect((await stored(desk)).request.state).toBe('resolved'));
  });
});
