// Settings → Usage: prices (global), and for the open workspace what its sessions cost and how the prompt cache does.
// The workspace figures are read in the tab's agent Worker (remoteWorkspaceUsage: the session logs and the cache
// statistics), again when the prices change. Loaded lazily; no resource is read while it refetches (a suspending
// read inside the settings dialog's <Suspense> would take the dialog out of the page).
import './usage.css';
import { createEffect, createSignal, For, on, Show } from 'solid-js';
import { remoteWorkspaceUsage, type WorkspaceUsage } from '../../../core/agent-worker';
import { formatCost, formatCount, formatTokens } from '../../chat/meter-format';
import type { AppState } from '../../state/app-state';
import { codeOf, messageOf } from '../../state/errors';
import { CacheView } from './cache-view';
import { PriceEditor } from './price-editor';
import { TotalsList } from './totals-list';
import { UsageTable } from './usage-table';

const MAX_SESSIONS_SHOWN = 20;

export default function UsageTab(props: { state: AppState }) {
  const s = props.state;
  const t = s.t;
  const [usage, setUsage] = createSignal<WorkspaceUsage | null>(null);
  const [error, setError] = createSignal<string | null>(null);
  const [loading, setLoading] = createSignal(false);
  let asked = 0;

  async function load() {
    const w = s.selected();
    const mine = ++asked;
    setError(null);
    if (!w) return void setUsage(null);
    setLoading(true);
    try {
      const next = await remoteWorkspaceUsage(w.id, s.db);
      if (mine === asked) setUsage(next);
    } catch (e) {
      if (mine === asked) setError(`${codeOf(e) ?? 'E_USAGE_UNAVAILABLE'}: ${messageOf(e)}`);
    } finally {
      if (mine === asked) setLoading(false);
    }
  }
  createEffect(on([() => s.selected()?.id, () => s.settings().prices], () => void load()));

  return (
    <div class="form usage-tab" data-testid="usage-settings">
      <p class="field-hint">{t('usage.intro')}</p>
      <PriceEditor state={s} />
      <section class="usage-card" aria-labelledby="usage-workspace-title">
        <div class="usage-card-head">
          <h3 id="usage-workspace-title">
            {t('usage.workspace')}
            <Show when={s.selected()}>{(w) => <span class="usage-aside"> · {w().name}</span>}</Show>
          </h3>
          <Show when={s.selected()}>
            <button type="button" class="button small" disabled={loading()} onClick={() => void load()}>
              {t('usage.refresh')}
            </button>
          </Show>
        </div>
        <Show when={s.selected()} fallback={<p class="empty-hint">{t('usage.workspaceNone')}</p>}>
          <Show when={error()}>
            <p class="field-error" role="alert">
              {t('usage.loadFailed', { error: error()! })}
            </p>
          </Show>
          <Show
            when={usage()}
            fallback={
              <p class="field-hint" role="status">
                {loading() ? t('usage.loading') : ''}
              </p>
            }
          >
            {(u) => (
              <Show when={u().totals.steps > 0} fallback={<p class="empty-hint">{t('usage.noSteps')}</p>}>
                <TotalsList totals={u().totals} t={t} locale={s.locale()} testId="workspace-totals" />
                <h4>{t('usage.sessions')}</h4>
                <UsageTable
                  columns={[
                    { label: t('usage.colSession') },
                    { label: t('usage.colTokens'), num: true },
                    { label: t('usage.cost'), num: true },
                  ]}
                >
                  <For each={u().sessions.slice(0, MAX_SESSIONS_SHOWN)}>
                    {(x) => (
                      <tr>
                        <th scope="row" class="usage-session-title" title={x.title}>
                          {x.title}
                        </th>
                        <td
                          class="num"
                          title={`${formatCount(x.totals.input_tokens, s.locale())} / ${formatCount(x.totals.output_tokens, s.locale())}`}
                        >
                          {x.totals.estimated_steps > 0 ? '≈ ' : ''}
                          {formatTokens(x.totals.input_tokens)} / {formatTokens(x.totals.output_tokens)}
                        </td>
                        <td class="num">{formatCost(x.totals.cost)}</td>
                      </tr>
                    )}
                  </For>
                </UsageTable>
              </Show>
            )}
          </Show>
        </Show>
      </section>
      <Show when={s.selected() ? usage() : null}>
        {(u) => <CacheView cache={u().cache} t={t} locale={s.locale()} />}
      </Show>
    </div>
  );
}
