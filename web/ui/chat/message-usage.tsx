// What an answer cost: a small "i" beside the answer's model name opens one quiet row with the turn's tokens in/out,
// cache read (and write), cost and time (the models too when the turn used several), then one line per model call
// when the turn made several. Figures
// the provider did not report are estimates and say so ("≈"); a model without a price costs "—", never a guess.
import './items.css';
import { createSignal, createUniqueId, For, Show } from 'solid-js';
import type { PriceTable, StepUsage } from '../../core/contracts';
import type { ChatTranslate } from './chat-i18n';
import { dollars, turnFigures } from './chat-model';
import { formatDuration } from './tool-state';

const tokens = (n: number) => n.toLocaleString('en-US');

export function MessageUsage(props: { steps: StepUsage[]; prices: PriceTable | null; ct: ChatTranslate }) {
  const ct = props.ct;
  const [open, setOpen] = createSignal(false);
  const id = createUniqueId();
  const severalModels = () => new Set(props.steps.map((s) => s.model)).size > 1;
  return (
    <>
      <button
        type="button"
        class="msg-action msg-usage-toggle"
        aria-label={ct('usage.show')}
        title={ct('usage.show')}
        aria-expanded={open()}
        aria-controls={open() ? id : undefined}
        onClick={() => setOpen((o) => !o)}
      >
        <svg viewBox="0 0 16 16" width="15" height="15" aria-hidden="true">
          <circle cx="8" cy="8" r="6.25" fill="none" stroke="currentColor" stroke-width="1.3" />
          <path d="M8 7.2v4M8 4.6v.1" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" />
        </svg>
      </button>
      <Show when={open()}>
        <div class="msg-usage" id={id} role="group" aria-label={ct('usage.show')}>
          <UsageLine
            steps={props.steps}
            prices={props.prices}
            ct={ct}
            label={props.steps.length > 1 ? ct('usage.total') : undefined}
            model={severalModels()}
          />
          <Show when={props.steps.length > 1}>
            <For each={props.steps}>
              {(step, i) => (
                <UsageLine
                  steps={[step]}
                  prices={props.prices}
                  ct={ct}
                  label={ct('usage.step', { n: i() + 1 })}
                  model={severalModels()}
                  minor
                />
              )}
            </For>
          </Show>
        </div>
      </Show>
    </>
  );
}

function UsageLine(props: {
  steps: StepUsage[];
  prices: PriceTable | null;
  ct: ChatTranslate;
  label?: string | undefined;
  model: boolean;
  minor?: boolean;
}) {
  const ct = props.ct;
  const f = () => turnFigures(props.steps, props.prices);
  const approx = (estimated: boolean, text: string) => (estimated ? `≈${text}` : text);
  const cost = () => {
    const c = f().cost;
    return c === null ? '—' : f().partial ? `≥${dollars(c)}` : dollars(c);
  };
  return (
    <p class="msg-usage-line" classList={{ minor: props.minor === true }}>
      <Show when={props.label}>
        <span class="msg-usage-label">{props.label}</span>
      </Show>
      <Figure
        name={ct('usage.in')}
        value={approx(f().estimated.input, tokens(f().input))}
        note={f().estimated.input ? ct('usage.estimated') : undefined}
      />
      <Figure
        name={ct('usage.out')}
        value={approx(f().estimated.output, tokens(f().output))}
        note={f().estimated.output ? ct('usage.estimated') : undefined}
      />
      <Show when={!f().estimated.cache || f().cacheRead > 0}>
        <Figure name={ct('usage.cacheRead')} value={tokens(f().cacheRead)} />
      </Show>
      <Show when={f().cacheWrite > 0}>
        <Figure name={ct('usage.cacheWrite')} value={tokens(f().cacheWrite)} />
      </Show>
      <Figure
        name={ct('usage.cost')}
        value={cost()}
        note={f().cost === null || f().partial ? ct('usage.noPrice') : undefined}
      />
      <Figure name={ct('usage.time')} value={formatDuration(f().ms)} />
      <Show when={props.model}>
        <Figure name={ct('usage.model')} value={f().models.join(', ')} />
      </Show>
    </p>
  );
}

function Figure(props: { name: string; value: string; note?: string | undefined }) {
  return (
    <span class="msg-usage-figure" title={props.note}>
      <span class="msg-usage-name">{props.name}</span> <span class="msg-usage-value">{props.value}</span>
    </span>
  );
}
