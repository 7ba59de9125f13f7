// Settings → Usage → Prices: the person's price table (global settings `prices`), dated; vendor lists offered to add
// (each dated, never applied by themselves), one model's price set, edited or removed. Every save goes through the
// core's parsePriceTable, so a wrong entry is refused with E_PRICES_INVALID and a sentence, not stored.
import { createSignal, createUniqueId, For, Show } from 'solid-js';
import { mergePrices, parsePriceTable, withPrice } from '../../../core/page';
import type { ModelPrice, PriceTable } from '../../../core/contracts';
import type { AppState } from '../../state/app-state';
import { codeOf, messageOf } from '../../state/errors';
import {
  EMPTY_PRICE_FORM,
  formFromPrice,
  presetChoices,
  priceFromForm,
  type PriceField,
  type PriceForm,
} from './usage-figures';
import type { UsageKey } from './strings';
import { UsageTable } from './usage-table';

const FIELD_LABEL: Record<PriceField, UsageKey> = {
  input: 'usage.input',
  output: 'usage.output',
  cache_read: 'usage.cacheRead',
  cache_write: 'usage.cacheWrite',
};
const today = () => new Date().toISOString().slice(0, 10);
const price = (x: number | undefined) => (x === undefined ? null : `$${x}`);

export function PriceEditor(props: { state: AppState }) {
  const s = props.state;
  const t = s.t;
  const id = createUniqueId();
  const f = (name: string) => `${id}-${name}`;
  const presets = presetChoices();
  const [preset, setPreset] = createSignal(presets[0]?.provider ?? '');
  const [form, setForm] = createSignal<PriceForm>(EMPTY_PRICE_FORM);
  const [editing, setEditing] = createSignal<string | null>(null);
  const [status, setStatus] = createSignal<{ ok: boolean; text: string } | null>(null);
  const table = (): PriceTable | null => s.settings().prices ?? null;
  const chosen = () => presets.find((p) => p.provider === preset());
  const patch = (p: Partial<PriceForm>) => setForm((cur) => ({ ...cur, ...p }));

  async function save(next: PriceTable, done: string): Promise<boolean> {
    setStatus(null);
    try {
      await s.updateSettings({ prices: parsePriceTable(next) });
      setStatus({ ok: true, text: done });
      return true;
    } catch (error) {
      setStatus({ ok: false, text: `${codeOf(error) ?? 'E_PRICES_INVALID'}: ${messageOf(error)}` });
      return false;
    }
  }

  async function submit(e: SubmitEvent) {
    e.preventDefault();
    const read = priceFromForm(form());
    if (!read.ok) {
      setStatus({
        ok: false,
        text:
          read.problem === 'model' ? t('usage.noModel') : t('usage.notNumber', { field: t(FIELD_LABEL[read.field]) }),
      });
      return;
    }
    // Editing under a new name replaces the old entry rather than leaving both.
    const was = editing();
    const base =
      was && was.toLowerCase() !== read.model.toLowerCase() ? withPrice(table(), was, null, today()) : table();
    if (await save(withPrice(base, read.model, read.price, today()), t('usage.priceSaved', { model: read.model }))) {
      setForm(EMPTY_PRICE_FORM);
      setEditing(null);
    }
  }

  function edit(p: ModelPrice) {
    setEditing(p.model);
    setForm(formFromPrice(p));
    setStatus(null);
    queueMicrotask(() => document.getElementById(f('model'))?.focus());
  }

  return (
    <section class="usage-card" aria-labelledby={f('title')}>
      <h3 id={f('title')}>{t('usage.prices')}</h3>
      <p class="field-hint">{t('usage.pricesHint')}</p>
      <Show when={(table()?.prices.length ?? 0) > 0} fallback={<p class="empty-hint">{t('usage.pricesEmpty')}</p>}>
        <p class="usage-as-of" data-testid="prices-as-of">
          {t('usage.pricesAsOf', { date: table()!.as_of })}
        </p>
        <UsageTable
          label={t('usage.prices')}
          columns={[
            { label: t('usage.colModel') },
            { label: t('usage.colInput'), num: true },
            { label: t('usage.colOutput'), num: true },
            { label: t('usage.colCacheRead'), num: true },
            { label: t('usage.colCacheWrite'), num: true },
            { label: <span class="visually-hidden">{t('usage.edit')}</span> },
          ]}
        >
          <For each={[...table()!.prices].sort((a, b) => a.model.localeCompare(b.model))}>
            {(p) => (
              <tr>
                <th scope="row">
                  <code>{p.model}</code>
                </th>
                <td class="num">{price(p.input)}</td>
                <td class="num">{price(p.output)}</td>
                <td class="num">{price(p.cache_read) ?? <span class="usage-aside">{t('usage.asInput')}</span>}</td>
                <td class="num">{price(p.cache_write) ?? <span class="usage-aside">{t('usage.asInput')}</span>}</td>
                <td>
                  <div class="usage-row-actions">
                    <button
                      type="button"
                      class="button small"
                      aria-label={t('usage.editPrice', { model: p.model })}
                      onClick={() => edit(p)}
                    >
                      {t('usage.edit')}
                    </button>
                    <button
                      type="button"
                      class="button small danger-outline"
                      aria-label={t('usage.removePrice', { model: p.model })}
                      onClick={() =>
                        void save(
                          withPrice(table(), p.model, null, table()!.as_of),
                          t('usage.priceRemoved', { model: p.model }),
                        )
                      }
                    >
                      {t('usage.remove')}
                    </button>
                  </div>
                </td>
              </tr>
            )}
          </For>
        </UsageTable>
      </Show>

      <Show when={presets.length > 0}>
        <div class="usage-preset">
          <div class="field">
            <label for={f('preset')}>{t('usage.preset')}</label>
            <select
              id={f('preset')}
              value={preset()}
              onChange={(e) => setPreset(e.currentTarget.value)}
              aria-describedby={f('preset-hint')}
            >
              <For each={presets}>
                {(p) => (
                  <option value={p.provider}>
                    {t('usage.presetOption', { label: p.label, date: p.table.as_of, count: p.table.prices.length })}
                  </option>
                )}
              </For>
            </select>
          </div>
          <button
            type="button"
            class="button"
            onClick={() => {
              const p = chosen();
              if (p)
                void save(
                  mergePrices(table(), p.table),
                  t('usage.presetAdded', { count: p.table.prices.length, label: p.label }),
                );
            }}
          >
            {t('usage.presetAdd')}
          </button>
          <Show when={chosen()}>
            {(p) => (
              <p id={f('preset-hint')} class="field-hint usage-preset-hint">
                {t('usage.presetHint', { source: p().source, date: p().table.as_of })}
              </p>
            )}
          </Show>
        </div>
      </Show>

      <form class="usage-price-form" onSubmit={submit} aria-labelledby={f('form-title')}>
        <h4 id={f('form-title')}>
          {editing() ? t('usage.formEditTitle', { model: editing()! }) : t('usage.formTitle')}
        </h4>
        <div class="usage-price-fields">
          <div class="field usage-model-field">
            <label for={f('model')}>{t('usage.model')}</label>
            <input
              id={f('model')}
              type="text"
              autocomplete="off"
              spellcheck={false}
              placeholder="gpt-4.1"
              value={form().model}
              onInput={(e) => patch({ model: e.currentTarget.value })}
            />
          </div>
          <For each={['input', 'output', 'cache_read', 'cache_write'] as const}>
            {(field) => (
              <div class="field">
                <label for={f(field)}>{t(FIELD_LABEL[field])}</label>
                <input
                  id={f(field)}
                  type="text"
                  inputmode="decimal"
                  autocomplete="off"
                  value={form()[field]}
                  placeholder={field.startsWith('cache') ? t('usage.asInput') : ''}
                  onInput={(e) => patch({ [field]: e.currentTarget.value })}
                />
              </div>
            )}
          </For>
        </div>
        <p class="field-hint">{t('usage.cacheOptional')}</p>
        <div class="usage-form-actions">
          <button type="submit" class="button primary">
            {t('usage.savePrice')}
          </button>
          <Show when={editing()}>
            <button
              type="button"
              class="button"
              onClick={() => {
                setEditing(null);
                setForm(EMPTY_PRICE_FORM);
              }}
            >
              {t('usage.cancelEdit')}
            </button>
          </Show>
        </div>
      </form>
      <Show when={status()}>
        {(st) => (
          <p
            class={st().ok ? 'field-success' : 'field-error'}
            role={st().ok ? 'status' : 'alert'}
            data-testid="prices-status"
          >
            {st().text}
          </p>
        )}
      </Show>
    </section>
  );
}
