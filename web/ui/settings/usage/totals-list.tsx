// Usage totals as a short list (requests, input, cache read/write, output, cost) with the notes that keep a partial
// cost honest: requests without a price are named, never priced by guess. Shared by Settings → Usage (the workspace)
// and the session menu's "Session usage".
import './usage.css';
import { Show } from 'solid-js';
import { cacheHitRatio } from '../../../core/page';
import type { UsageTotals } from '../../../core/contracts';
import { formatCost, formatCount, formatPercent, type NumberLocale } from '../../chat/meter-format';
import type { Translate } from '../../i18n/i18n';

export function TotalsList(props: { totals: UsageTotals; t: Translate; locale: NumberLocale; testId?: string }) {
  const t = props.t;
  const n = (x: number) => formatCount(x, props.locale);
  const approx = () => (props.totals.estimated_steps > 0 ? '≈ ' : '');
  return (
    <div class="usage-totals-wrap">
      <dl class="usage-totals" data-testid={props.testId}>
        <div>
          <dt>{t('usage.steps')}</dt>
          <dd>{n(props.totals.steps)}</dd>
        </div>
        <div>
          <dt>{t('usage.inputTokens')}</dt>
          <dd>
            {approx()}
            {n(props.totals.input_tokens)}
          </dd>
        </div>
        <div>
          <dt>{t('usage.cacheReadTokens')}</dt>
          <dd>
            {n(props.totals.cache_read_tokens)}
            <Show when={props.totals.input_tokens > 0}>
              <span class="usage-aside"> ({formatPercent(cacheHitRatio(props.totals))})</span>
            </Show>
          </dd>
        </div>
        <Show when={props.totals.cache_write_tokens > 0}>
          <div>
            <dt>{t('usage.cacheWriteTokens')}</dt>
            <dd>{n(props.totals.cache_write_tokens)}</dd>
          </div>
        </Show>
        <div>
          <dt>{t('usage.outputTokens')}</dt>
          <dd>
            {approx()}
            {n(props.totals.output_tokens)}
          </dd>
        </div>
        <div>
          <dt>{t('usage.cost')}</dt>
          <dd class="usage-cost">{formatCost(props.totals.cost)}</dd>
        </div>
      </dl>
      <Show when={props.totals.steps > 0 && props.totals.unpriced_steps > 0}>
        <p class="field-hint">
          {props.totals.cost === null
            ? t('usage.noPrices')
            : t('usage.unpriced', { count: n(props.totals.unpriced_steps) })}
        </p>
      </Show>
      <Show when={props.totals.estimated_steps > 0}>
        <p class="field-hint">{t('usage.estimatedSteps', { count: n(props.totals.estimated_steps) })}</p>
      </Show>
    </div>
  );
}
