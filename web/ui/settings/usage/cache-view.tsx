// Settings → Usage → Prompt cache: the workspace's cache statistics (seed 000 §8, recorded by the cache module) in
// plain words: the hit ratio overall and over the latest requests with a small bar per request, the target and
// whether it is met (or why that is not known yet), the streams, and where input missed the cache, by kind.
import { For, Show } from 'solid-js';
import type { CacheRecord, CacheReport } from '../../../core/page';
import { formatCount, formatPercent, type NumberLocale } from '../../chat/meter-format';
import type { Translate } from '../../i18n/i18n';
import { cacheFigures } from './usage-figures';
import { UsageTable } from './usage-table';

export function CacheView(props: {
  cache: { report: CacheReport; records: CacheRecord[] } | null;
  t: Translate;
  locale: NumberLocale;
}) {
  const t = props.t;
  const n = (x: number) => formatCount(x, props.locale);
  return (
    <section class="usage-card" aria-labelledby="usage-cache-title">
      <h3 id="usage-cache-title">{t('usage.cache')}</h3>
      <Show when={props.cache} fallback={<p class="empty-hint">{t('usage.cacheNone')}</p>}>
        {(c) => {
          const fig = () => cacheFigures(c().report, c().records);
          const report = () => c().report;
          const target = () => {
            const r = report();
            const state =
              r.target_met === true
                ? t('usage.targetMet')
                : r.target_met === false
                  ? t('usage.targetMissed')
                  : t('usage.targetUnknown', { unknown: n(r.unknown_usage), unobserved: n(r.unobserved) });
            return t('usage.target', { target: formatPercent(r.target_hit_ratio), state });
          };
          const last = () => fig().series.at(-1)?.ratio ?? null;
          return (
            <div class="usage-cache" data-testid="cache-view">
              <div class="usage-hit">
                <div>
                  <p class="usage-hit-label">{t('usage.hitRatio')}</p>
                  <p class="usage-hit-value" data-testid="cache-hit-ratio">
                    {formatPercent(fig().overall)}
                  </p>
                </div>
                <Show when={fig().series.length > 0}>
                  <div
                    class="usage-spark"
                    role="img"
                    aria-label={t('usage.sparkline', { count: fig().series.length, ratio: formatPercent(last()) })}
                  >
                    <For each={fig().series}>
                      {(p) => <span class="usage-spark-bar" data-class={p.class} style={{ '--h': String(p.ratio) }} />}
                    </For>
                  </div>
                </Show>
              </div>
              <p class="field-hint">{t('usage.hitRatioHint')}</p>
              <ul class="usage-facts">
                <li>{t('usage.hitOverall', { ratio: formatPercent(fig().overall) })}</li>
                <Show when={fig().recentCount > 0}>
                  <li data-testid="cache-hit-recent">
                    {t('usage.hitRecent', { count: fig().recentCount, ratio: formatPercent(fig().recent) })}
                  </li>
                </Show>
                <li data-testid="cache-target" classList={{ 'usage-missed': report().target_met === false }}>
                  {target()}
                </li>
                <li>{t('usage.requests', { prepared: n(report().prepared), observed: n(report().observed) })}</li>
                <li>{t('usage.streams', { count: n(fig().streams) })}</li>
              </ul>
              <h4>{t('usage.misses')}</h4>
              <UsageTable
                class="usage-classes"
                columns={[
                  { label: t('usage.colClass') },
                  { label: t('usage.colRequests'), num: true },
                  { label: t('usage.colMissed'), num: true },
                ]}
              >
                <For each={fig().classes}>
                  {(k) => (
                    <tr data-class={k.class}>
                      <th scope="row">
                        <span class="usage-class-name">
                          <span class="usage-class-dot" data-class={k.class} aria-hidden="true" />
                          {t(`usage.class.${k.class}`)}
                        </span>
                        <span class="usage-class-hint">{t(`usage.classHint.${k.class}`)}</span>
                      </th>
                      <td class="num">{n(k.requests)}</td>
                      <td class="num">
                        {n(k.missed)}
                        <Show when={k.input > 0}>
                          <span class="usage-aside"> ({formatPercent(k.missed / k.input)})</span>
                        </Show>
                      </td>
                    </tr>
                  )}
                </For>
              </UsageTable>
            </div>
          );
        }}
      </Show>
    </section>
  );
}
