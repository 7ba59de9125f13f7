// The context meter in the composer bar: how full the next request is (used / window tokens as a ring, the
// compaction trigger marked on it, "≈" when the figure is an estimate), coloured as it nears the trigger. Hover or
// focus shows the figures; a click opens the breakdown (context-breakdown.tsx), as /context does.
import './meter.css';
import { createSignal, createUniqueId, Show } from 'solid-js';
import type { ContextSize } from '../../core/contracts';
import { ContextBreakdownDialog } from './context-breakdown';
import type { ChatTranslate } from './chat-i18n';
import {
  formatCount,
  formatPercent,
  formatTokens,
  meterFractions,
  meterLevel,
  type NumberLocale,
} from './meter-format';

export type { MeterChat } from './meter-format';
import type { MeterChat } from './meter-format';

export interface ContextMeterControl {
  /** Opens the breakdown (the /context command). */
  openBreakdown(): void;
}

const R = 7;
const C = 2 * Math.PI * R;

/** The ring: the used arc from 12 o'clock clockwise, and a tick across it where compaction triggers. */
function Ring(props: { size: ContextSize }) {
  const f = () => meterFractions(props.size);
  const tick = () => {
    const t = f()?.trigger;
    if (t === null || t === undefined) return null;
    const a = t * 2 * Math.PI - Math.PI / 2;
    return { x1: 9 + Math.cos(a) * 4.5, y1: 9 + Math.sin(a) * 4.5, x2: 9 + Math.cos(a) * 9, y2: 9 + Math.sin(a) * 9 };
  };
  return (
    <svg class="context-meter-ring" viewBox="0 0 18 18" aria-hidden="true">
      <circle class="context-meter-track" cx="9" cy="9" r={R} />
      <Show when={f()} fallback={<circle class="context-meter-open" cx="9" cy="9" r={R} />}>
        {(fr) => (
          <circle
            class="context-meter-used"
            cx="9"
            cy="9"
            r={R}
            transform="rotate(-90 9 9)"
            stroke-dasharray={`${(fr().used * C).toFixed(2)} ${C.toFixed(2)}`}
          />
        )}
      </Show>
      <Show when={tick()}>
        {(t) => <line class="context-meter-trigger" x1={t().x1} y1={t().y1} x2={t().x2} y2={t().y2} />}
      </Show>
    </svg>
  );
}

export function ContextMeter(props: {
  chat: MeterChat;
  ct: ChatTranslate;
  locale: NumberLocale;
  ref?: (control: ContextMeterControl) => void;
}) {
  const ct = props.ct;
  const tipId = createUniqueId();
  const [open, setOpen] = createSignal(false);
  props.ref?.({ openBreakdown: () => setOpen(true) });

  const tip = (size: ContextSize) => {
    const used = formatCount(size.tokens, props.locale);
    const lines = [
      size.window
        ? ct('meter.tipUsed', {
            used,
            window: formatCount(size.window, props.locale),
            percent: formatPercent(size.tokens / size.window),
          })
        : ct('meter.tipNoWindow', { used }),
    ];
    if (size.trigger !== null) lines.push(ct('meter.tipTrigger', { trigger: formatCount(size.trigger, props.locale) }));
    if (size.estimated) lines.push(ct('meter.tipEstimated'));
    lines.push(ct('meter.tipOpen'));
    return lines;
  };

  return (
    <>
      <Show when={props.chat.context()}>
        {(size) => (
          <div
            class="context-meter"
            data-level={meterLevel(size())}
            data-tokens={size().tokens}
            data-estimated={size().estimated ? '' : undefined}
          >
            <button
              type="button"
              class="composer-chip context-meter-button"
              // The name starts with what the button is and holds the figures it shows (WCAG 2.5.3, label in name).
              aria-label={`${ct('meter.label')} ${size().estimated ? '≈' : ''}${formatTokens(size().tokens)}${
                size().window ? ` / ${formatTokens(size().window!)}` : ''
              }`}
              aria-describedby={tipId}
              onClick={() => setOpen(true)}
            >
              <Ring size={size()} />
              <span class="context-meter-text">
                {size().estimated ? '≈' : ''}
                {formatTokens(size().tokens)}
                <Show when={size().window}>
                  {(w) => <span class="context-meter-window"> / {formatTokens(w())}</span>}
                </Show>
              </span>
            </button>
            <div id={tipId} role="tooltip" class="context-meter-tip">
              {tip(size()).map((line) => (
                <p>{line}</p>
              ))}
            </div>
          </div>
        )}
      </Show>
      <Show when={open()}>
        <ContextBreakdownDialog chat={props.chat} ct={ct} locale={props.locale} onClose={() => setOpen(false)} />
      </Show>
    </>
  );
}
