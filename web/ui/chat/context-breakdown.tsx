// The /context view: the next request part by part (system prompt, project instructions, memory and skills, tool
// schemas per source, the conversation, images) with tokens and share of the window, what a compaction would fold
// now, and "Compact now" with an optional focus. Figures come from the Worker (ChatController.contextBreakdown()),
// measured when the dialog opens; nothing here estimates on its own.
import { createResource, createSignal, createUniqueId, For, Show } from 'solid-js';
import type { ContextPartKind } from '../../core/contracts';
import { Dialog } from '../components/dialog';
import type { ChatTranslate } from './chat-i18n';
import {
  type MeterChat,
  breakdownRows,
  formatCount,
  formatPercent,
  partsDiffer,
  shareOf,
  type NumberLocale,
} from './meter-format';
import type { MeterKey } from './meter-strings';

const UNIT: Partial<Record<ContextPartKind, MeterKey>> = {
  'tools:builtin': 'meter.unitTools',
  'tools:plugins': 'meter.unitTools',
  'tools:bridge': 'meter.unitTools',
  'tools:mcp': 'meter.unitTools',
  history: 'meter.unitMessages',
  images: 'meter.unitImages',
  memory: 'meter.unitItems',
  skills: 'meter.unitItems',
};

const errorText = (e: unknown) => {
  const d = e as { code?: string; message?: string } | null;
  return d?.code ? `${d.code}: ${d.message ?? ''}` : String(d?.message ?? e);
};

export function ContextBreakdownDialog(props: {
  chat: MeterChat;
  ct: ChatTranslate;
  locale: NumberLocale;
  onClose: () => void;
}) {
  const ct = props.ct;
  const id = createUniqueId();
  const [breakdown] = createResource(() => props.chat.contextBreakdown());
  const [focus, setFocus] = createSignal('');
  const n = (x: number) => formatCount(x, props.locale);

  const blocked = (): MeterKey | null =>
    props.chat.busy() ? 'meter.compactBusy' : props.chat.sessionId() === null ? 'meter.compactNoSession' : null;

  function compact(e: SubmitEvent) {
    e.preventDefault();
    if (blocked()) return;
    const text = focus().trim();
    // The dialog closes first: the compaction runs as a turn and shows in the chat (busy, then the divider).
    props.onClose();
    void props.chat.compact(text || undefined);
  }

  return (
    <Dialog title={ct('meter.title')} onClose={props.onClose} closeLabel={ct('meter.close')} wide>
      <div class="context-breakdown">
        <Show
          when={!breakdown.error}
          fallback={
            <p class="field-error" role="alert">
              {ct('meter.failed', { error: errorText(breakdown.error) })}
            </p>
          }
        >
          <Show
            when={breakdown()}
            fallback={
              <p class="field-hint" role="status">
                {ct('meter.loading')}
              </p>
            }
          >
            {(b) => {
              const size = () => b().size;
              const rows = () => breakdownRows(b());
              const approx = () => (size().estimated ? '≈ ' : '');
              return (
                <>
                  <p class="context-breakdown-total" data-testid="context-total">
                    {approx()}
                    {size().window
                      ? ct('meter.summary', {
                          used: n(size().tokens),
                          window: n(size().window!),
                          percent: formatPercent(size().tokens / size().window!),
                        })
                      : ct('meter.summaryNoWindow', { used: n(size().tokens) })}
                  </p>
                  <p class="field-hint">
                    {size().window && size().trigger !== null
                      ? ct('meter.summaryTrigger', {
                          trigger: n(size().trigger!),
                          percent: formatPercent(size().trigger! / size().window!),
                        })
                      : size().window
                        ? ''
                        : ct('meter.summaryNoTrigger')}
                  </p>
                  <div class="context-stack" aria-hidden="true">
                    <For each={rows().filter((r) => r.kind !== 'free')}>
                      {(r) => (
                        <span
                          class="context-stack-part"
                          data-kind={r.kind}
                          style={{ '--share': String(shareOf(r.tokens, size())) }}
                        />
                      )}
                    </For>
                    <Show when={size().trigger !== null && size().window}>
                      <span
                        class="context-stack-trigger"
                        style={{ '--at': String(Math.min(1, size().trigger! / size().window!)) }}
                      />
                    </Show>
                  </div>
                  <table class="context-table">
                    <thead>
                      <tr>
                        <th scope="col">{ct('meter.colPart')}</th>
                        <th scope="col" class="num">
                          {ct('meter.colTokens')}
                        </th>
                        <th scope="col">{size().window ? ct('meter.colShare') : ct('meter.colShareRequest')}</th>
                      </tr>
                    </thead>
                    <tbody>
                      <For each={rows()}>
                        {(r) => (
                          <tr data-kind={r.kind}>
                            <th scope="row">
                              <span class="context-part-name">
                                <span class="context-swatch" data-kind={r.kind} aria-hidden="true" />
                                {ct(`meter.part.${r.kind}`)}
                              </span>
                              <Show when={r.kind === 'free' ? undefined : UNIT[r.kind]}>
                                {(unit) => <span class="context-items">{ct(unit(), { count: r.items })}</span>}
                              </Show>
                            </th>
                            <td class="num">
                              {r.kind === 'free' ? '' : approx()}
                              {n(r.tokens)}
                            </td>
                            <td>
                              <span class="context-share">
                                <span
                                  class="context-share-bar"
                                  data-kind={r.kind}
                                  style={{ '--share': String(shareOf(r.tokens, size())) }}
                                />
                              </span>
                              <span class="context-share-text">{formatPercent(shareOf(r.tokens, size()))}</span>
                            </td>
                          </tr>
                        )}
                      </For>
                    </tbody>
                  </table>
                  <p class="context-fold" data-testid="context-would-fold">
                    {b().would_fold && b().would_fold!.messages > 0
                      ? ct('meter.fold', {
                          messages: n(b().would_fold!.messages),
                          tools: n(b().would_fold!.tool_results),
                          tokens: n(b().would_fold!.tokens),
                        })
                      : ct('meter.foldNone')}
                  </p>
                  <Show when={size().estimated}>
                    <p class="field-hint">{ct('meter.estimated')}</p>
                  </Show>
                  <Show when={partsDiffer(b())}>
                    {(sum) => <p class="field-hint">{ct('meter.partsNote', { sum: n(sum()) })}</p>}
                  </Show>
                </>
              );
            }}
          </Show>
        </Show>
        <form class="context-compact" onSubmit={compact}>
          <div class="field">
            <label for={`${id}-focus`}>{ct('meter.focus')}</label>
            <input
              id={`${id}-focus`}
              type="text"
              autocomplete="off"
              value={focus()}
              onInput={(e) => setFocus(e.currentTarget.value)}
              aria-describedby={`${id}-focus-hint`}
            />
            <p id={`${id}-focus-hint`} class="field-hint">
              {blocked() ? ct(blocked()!) : ct('meter.focusHint')}
            </p>
          </div>
          <button type="submit" class="button primary" disabled={blocked() !== null}>
            {ct('meter.compactNow')}
          </button>
        </form>
      </div>
    </Dialog>
  );
}
