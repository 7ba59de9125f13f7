// The app: checks the browser, opens storage, then shows the shell. Nothing here knows about agents yet; the
// chat view mounts in components/chat-slot.tsx.
import { createResource, createSignal, Match, Switch } from 'solid-js';
import { openHarnessDb } from '../core/page';
import { Shell } from './shell';
import { Unsupported } from './components/unsupported';
import { resolveLocale, translate, type Translate } from './i18n/i18n';
import { missingWasmFeatures } from './platform/wasm-features';
import { createAppState } from './state/app-state';
import { messageOf } from './state/errors';
import './styles/app.css';
import './styles/layout.css';
import './styles/menus.css';
import './styles/session-list.css';

export function App() {
  // Before settings exist, speak the browser's language.
  const t: Translate = (key, params) => translate(resolveLocale('system'), key, params);
  const missing = missingWasmFeatures();
  const [attempt, setAttempt] = createSignal(0);
  const [state] = createResource(attempt, async () => {
    const state = createAppState(await openHarnessDb());
    await state.refresh();
    return state;
  });
  return (
    <Switch>
      <Match when={missing.length > 0}>
        <Unsupported t={t} features={missing} />
      </Match>
      <Match when={state.error}>
        <main class="center-screen">
          <section class="card" role="alert">
            <h1>{t('app.storageError')}</h1>
            <p>{messageOf(state.error)}</p>
            <button type="button" class="button primary" onClick={() => setAttempt((n) => n + 1)}>
              {t('app.retry')}
            </button>
          </section>
        </main>
      </Match>
      <Match when={state()}>{(s) => <Shell state={s()} />}</Match>
      <Match when={state.loading}>
        <main class="center-screen" aria-busy="true">
          <p class="empty-hint">{t('app.loading')}</p>
        </main>
      </Match>
    </Switch>
  );
}
