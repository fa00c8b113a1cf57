import { useEffect, useLayoutEffect, useState } from 'react';
import type { DeskApi } from '../shared/api.js';
import { notifyFatal, useAttentionTitle } from './components/Attention.js';
import { Keyboard } from './components/Keyboard.js';
import { NavBar } from './components/NavBar.js';
import { ShortcutSheet } from './components/ShortcutSheet.js';
import { StatusBar } from './components/StatusBar.js';
import { UndoToast } from './components/UndoToast.js';
import { StoresContext, useSlice, useStores } from './state/context.js';
import { wireAddress } from './state/address.js';
import { createStores, wireLive, type Stores } from './state/stores.js';
import { Activity } from './views/Activity.js';
import { Learnings } from './views/Learnings.js';
import { NeedsYou } from './views/NeedsYou.js';
import { Runs } from './views/Runs.js';

/** The title's count needs the stores' context, so it lives in a child of the provider. */
function AttentionTitle() {
  useAttentionTitle();
  return null;
}

function Views() {
  const stores = useStores();
  const route = useSlice(stores.nav, (s) => s.route);
  switch (route.view) {
    case 'needs':
      return <NeedsYou focus={route.params.request} />;
    case 'learnings':
      return <Learnings />;
    case 'runs':
      return <Runs run={route.params.run} chain={route.params.chain} />;
    case 'activity':
      return <Activity />;
  }
}

export function App({ api, stores: given }: { api: DeskApi; stores?: Stores }) {
  const [stores] = useState(() => given ?? createStores(api));
  const sheet = useSlice(stores.ui, (s) => s.sheet);

  // The address is taken in before any view's own first load: layout effects all run before the
  // first passive effect, a child's included. Were it a passive effect like the views' own, it
  // would run after them (a parent's effects run last), so the Learnings list opened on a
  // filtered address would first ask for the unfiltered list and then again for the filtered one.
  useLayoutEffect(() => wireAddress(stores), [stores]);

  useEffect(() => {
    const onHash = () => stores.nav.getState().sync();
    window.addEventListener('hashchange', onHash);
    // The address may have changed since the first render read it: this effect runs a task or
    // more after the window is painted, and a change in between sent its hashchange to no one
    // (the window stayed on Needs you with the address naming another view; docs/window.md#the-address).
    onHash();
    const off = wireLive(stores, { onFatal: (r) => notifyFatal(stores, r) });
    void stores.desk.getState().load();
    void stores.help.getState().load();
    return () => {
      window.removeEventListener('hashchange', onHash);
      off();
    };
  }, [stores]);

  return (
    <StoresContext.Provider value={stores}>
      <div className="app">
        <button type="button" className="skip" onClick={() => document.getElementById('main')?.focus()}>
          Skip to content
        </button>
        <NavBar />
        <main id="main" tabIndex={-1}>
          <Views />
        </main>
        <StatusBar />
        <UndoToast />
        {sheet && <ShortcutSheet onClose={() => stores.ui.getState().setSheet(false)} />}
        <Keyboard />
        <AttentionTitle />
      </div>
    </StoresContext.Provider>
  );
}
