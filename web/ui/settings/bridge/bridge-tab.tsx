// Settings → Bridge: pair with a running i-bridge (address + the one-time code it printed; the token goes to the
// secrets store), then show its status, roots and tools. An unreachable bridge gets the message that names the
// two usual causes: --allow-origin missing this app's origin, and Chrome's Local Network Access prompt.
import { createResource, createSignal, createUniqueId, For, Show } from 'solid-js';
import {
  chooseBridgeRoot,
  connectedBridge,
  forgetBridge,
  pairBridge,
  type BridgeManifest,
  type BridgeStatus,
} from '../../../core/page';
import { escapeControls } from '../../../core/contracts';
import type { AppState } from '../../state/app-state';
import { messageOf } from '../../state/errors';
import '../plugins/plugins.css';

interface Loaded {
  url: string;
  root: string;
  status?: BridgeStatus;
  manifest?: BridgeManifest;
  error?: string;
}

export default function BridgeTab(props: { state: AppState }) {
  const s = props.state;
  const t = s.t;
  const ids = { url: createUniqueId(), code: createUniqueId(), root: createUniqueId() };
  const origin = location.origin;
  const [url, setUrl] = createSignal('http://127.0.0.1:7331');
  const [code, setCode] = createSignal('');
  const [pairing, setPairing] = createSignal(false);
  const [pairError, setPairError] = createSignal('');
  const [loaded, { refetch }] = createResource(async (): Promise<Loaded | null> => {
    const saved = await connectedBridge(s.db);
    if (!saved) return null;
    const base = { url: saved.connection.url, root: saved.connection.root };
    try {
      const [status, manifest] = await Promise.all([saved.client.status(), saved.client.manifest()]);
      return { ...base, status, manifest };
    } catch (error) {
      return { ...base, error: messageOf(error) };
    }
  });

  async function pair(event: SubmitEvent) {
    event.preventDefault();
    setPairError('');
    setPairing(true);
    try {
      await pairBridge(s.db, url(), code());
      setCode('');
      await refetch();
    } catch (error) {
      setPairError(messageOf(error));
    } finally {
      setPairing(false);
    }
  }

  return (
    <div class="form bridge-tab">
      <p class="field-hint">{t('bridge.intro', { origin })}</p>
      <pre
        class="bridge-command"
        aria-label={t('bridge.command')}
      >{`npx i-bridge --allow-origin ${origin} --root <project folder> --manifest <desktop.json>`}</pre>
      <Show when={loaded()}>
        {(l) => (
          <section class="bridge-card" aria-label={t('bridge.status')}>
            <h3 data-testid="bridge-paired">{t('bridge.paired', { url: l().url })}</h3>
            <Show when={l().error}>
              <p class="field-error" role="alert" data-testid="bridge-error">
                {l().error}
              </p>
            </Show>
            <Show when={l().status}>
              {(st) => (
                <dl class="bridge-status">
                  <dt>{t('bridge.version')}</dt>
                  <dd>
                    {st().name} v{st().protocol}
                  </dd>
                  <dt>{t('bridge.pid')}</dt>
                  <dd>{st().pid}</dd>
                  <dt>
                    <label for={ids.root}>{t('bridge.root')}</label>
                  </dt>
                  <dd>
                    <select
                      id={ids.root}
                      value={l().root}
                      onChange={(e) =>
                        void s.attempt(() => chooseBridgeRoot(s.db, e.currentTarget.value)).then(() => refetch())
                      }
                    >
                      <For each={st().roots}>{(r) => <option value={r}>{r}</option>}</For>
                    </select>
                  </dd>
                  <dt>{t('bridge.toolCount')}</dt>
                  <dd>{st().tools}</dd>
                  <dt>{t('bridge.hooks')}</dt>
                  <dd>
                    {[...new Set((l().manifest?.hooks ?? []).flatMap((h) => h.events))].join(', ') ||
                      t('bridge.noHooks')}
                  </dd>
                </dl>
              )}
            </Show>
            <Show when={l().manifest}>
              {(m) => (
                <>
                  <h3>{t('bridge.tools')}</h3>
                  <Show when={m().tools.length > 0} fallback={<p class="empty-hint">{t('bridge.noTools')}</p>}>
                    <ul class="bridge-tools" role="list" aria-label={t('bridge.tools')}>
                      <For each={m().tools}>
                        {(tool) => (
                          <li>
                            <code>{escapeControls(tool.name)}</code>{' '}
                            <span class="meta-text">— {escapeControls(tool.description)}</span>
                          </li>
                        )}
                      </For>
                    </ul>
                  </Show>
                </>
              )}
            </Show>
            <div class="form-actions plugin-actions">
              <button type="button" class="button small" onClick={() => void refetch()}>
                {t('bridge.refresh')}
              </button>
              <button
                type="button"
                class="button small danger-outline"
                onClick={() => void s.attempt(() => forgetBridge(s.db)).then(() => refetch())}
              >
                {t('bridge.forget')}
              </button>
            </div>
          </section>
        )}
      </Show>
      <Show when={!loaded.loading && !loaded()}>
        <p class="empty-hint">{t('bridge.notPaired')}</p>
      </Show>
      <form class="bridge-pair" onSubmit={pair}>
        <div class="field">
          <label for={ids.url}>{t('bridge.url')}</label>
          <input
            id={ids.url}
            type="text"
            inputmode="url"
            required
            autocomplete="off"
            spellcheck={false}
            value={url()}
            onInput={(e) => setUrl(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for={ids.code}>{t('bridge.code')}</label>
          <input
            id={ids.code}
            type="text"
            required
            autocomplete="off"
            spellcheck={false}
            placeholder="K7QM-X2RD"
            value={code()}
            onInput={(e) => setCode(e.currentTarget.value)}
          />
        </div>
        <button type="submit" class="button primary" disabled={pairing()}>
          {pairing() ? t('bridge.pairing') : t('bridge.pair')}
        </button>
      </form>
      <p class="field-error" role="alert" data-testid="bridge-pair-error">
        {pairError()}
      </p>
    </div>
  );
}
