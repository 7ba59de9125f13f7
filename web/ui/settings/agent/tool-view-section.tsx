// Settings → Agent → Tools the agent sees, for the workspace chosen in "Applies to" (seed 002 tool view, issue 17):
// all tools, or ticked groups plus named tools/groups. Saved validated by the core's parser; every turn of the
// workspace reads it when it starts. The count and size are of the built-ins the profile offers; entries naming
// plugin, bridge, MCP or web tools are judged when a turn starts (those tools exist only then) and listed as such.
import { createEffect, createResource, createSignal, createUniqueId, For, on, Show } from 'solid-js';
import { readToolView, saveToolView, summariseToolView } from '../../../core/page';
import { TOOL_VIEW_LIMITS, type ToolViewConfig } from '../../../core/page';
import { formatBytes } from '../../i18n/i18n';
import type { MessageKey } from '../../i18n/en';
import type { AppState } from '../../state/app-state';
import { codeOf, messageOf } from '../../state/errors';

const GROUPS = ['files', 'search', 'web', 'memory', 'skills', 'bridge'] as const;

interface Form {
  all: boolean;
  groups: string[];
  more: string;
}

const formOf = (v: ToolViewConfig | null): Form => ({
  all: v === null,
  groups: v ? v.groups.filter((g) => (GROUPS as readonly string[]).includes(g)) : ['files'],
  more: v ? [...v.names, ...v.groups.filter((g) => !(GROUPS as readonly string[]).includes(g))].join(', ') : '',
});

/** `more` splits into names and `plugin:`/`mcp:` groups; the core parser judges each entry on save. */
function viewOf(f: Form): ToolViewConfig | null {
  if (f.all) return null;
  const more = f.more.split(/[\s,]+/).filter(Boolean);
  const isGroup = (x: string) => x.includes(':') || (GROUPS as readonly string[]).includes(x);
  return { names: more.filter((x) => !isGroup(x)), groups: [...f.groups, ...more.filter(isGroup)] };
}

export function ToolViewSection(props: { state: AppState; scope: string | null }) {
  const s = props.state;
  const t = s.t;
  const id = createUniqueId();
  const [form, setForm] = createSignal<Form>(formOf(null));
  const [status, setStatus] = createSignal<{ ok: boolean; text: string } | null>(null);
  const patch = (p: Partial<Form>) => setForm((cur) => ({ ...cur, ...p }));
  const errorText = (error: unknown) => `${codeOf(error) ?? 'E_TOOL_VIEW_CONFIG_INVALID'}: ${messageOf(error)}`;

  createEffect(
    on(
      () => props.scope,
      async (scope) => {
        setStatus(null);
        if (!scope) return;
        try {
          setForm(formOf(await readToolView(s.db, scope)));
        } catch (error) {
          // A damaged stored view is named (turns stop until it is fixed); saving replaces it.
          setForm(formOf(null));
          setStatus({ ok: false, text: errorText(error) });
        }
      },
    ),
  );

  // What the form would save, counted against the limits as the person edits it.
  const [summary] = createResource(
    () => (props.scope ? { scope: props.scope, view: viewOf(form()) } : null),
    (k) => summariseToolView(s.db, k.scope, k.view),
  );

  async function save() {
    const scope = props.scope;
    if (!scope) return;
    setStatus(null);
    try {
      setForm(formOf(await saveToolView(s.db, scope, viewOf(form()))));
      setStatus({ ok: true, text: t('toolView.saved') });
      s.settingsChanged();
    } catch (error) {
      setStatus({ ok: false, text: errorText(error) });
    }
  }

  const toggle = (g: string, on: boolean) =>
    patch({ groups: on ? [...form().groups.filter((x) => x !== g), g] : form().groups.filter((x) => x !== g) });
  const scopeName = () => s.workspaces().find((w) => w.id === props.scope)?.name ?? '';
  const size = (n: number) => formatBytes(n, s.locale());
  return (
    <section
      class="form agent-form rules-section tool-view-section"
      aria-labelledby={`${id}-title`}
      data-testid="tool-view"
    >
      <h3 id={`${id}-title`}>{t('toolView.title')}</h3>
      <p class="field-hint">{t('toolView.intro')}</p>
      <Show when={props.scope} fallback={<p class="field-hint">{t('toolView.pickWorkspace')}</p>}>
        <p class="rules-scope">{t('toolView.forWorkspace', { name: scopeName() })}</p>
        <div class="choice-group tool-view-mode" role="radiogroup" aria-label={t('toolView.title')}>
          <label class="choice">
            <input type="radio" name={`${id}-mode`} checked={form().all} onChange={() => patch({ all: true })} />
            <span>
              <strong>{t('toolView.all')}</strong>
              <span class="agent-hint">{t('toolView.allHint')}</span>
            </span>
          </label>
          <label class="choice">
            <input type="radio" name={`${id}-mode`} checked={!form().all} onChange={() => patch({ all: false })} />
            <span>
              <strong>{t('toolView.some')}</strong>
              <span class="agent-hint">{t('toolView.someHint')}</span>
            </span>
          </label>
        </div>
        <Show when={!form().all}>
          <fieldset class="choice-group">
            <legend>{t('toolView.groups')}</legend>
            <div class="agent-modules">
              <For each={GROUPS}>
                {(g) => (
                  <label class="checkbox">
                    <input
                      type="checkbox"
                      checked={form().groups.includes(g)}
                      onChange={(e) => toggle(g, e.currentTarget.checked)}
                    />
                    <span>
                      <code>{g}</code>
                      <span class="agent-hint">{t(`toolView.group.${g}` as MessageKey)}</span>
                    </span>
                  </label>
                )}
              </For>
            </div>
          </fieldset>
          <div class="field">
            <label for={`${id}-more`}>{t('toolView.more')}</label>
            <input
              id={`${id}-more`}
              type="text"
              class="tool-view-more"
              value={form().more}
              spellcheck={false}
              autocomplete="off"
              placeholder="plugin:docs, mcp:github, read"
              onInput={(e) => patch({ more: e.currentTarget.value })}
            />
            <p class="field-hint">{t('toolView.moreHint')}</p>
          </div>
        </Show>
        <Show when={summary.latest}>
          {(sum) => (
            <div class="tool-view-summary" data-testid="tool-view-summary">
              <p class="meta-text" classList={{ 'field-error': sum().error !== null }}>
                {sum().error
                  ? `${sum().error!.code}: ${sum().error!.message}`
                  : t('toolView.count', {
                      count: sum().count,
                      max: TOOL_VIEW_LIMITS.visible,
                      size: size(sum().bytes),
                      maxSize: size(TOOL_VIEW_LIMITS.bytes),
                    })}
              </p>
              <Show when={sum().atTurnStart.length > 0}>
                <p class="field-hint">{t('toolView.atTurnStart', { list: sum().atTurnStart.join(', ') })}</p>
              </Show>
            </div>
          )}
        </Show>
        <p class="field-hint">
          {t('toolView.limitsNote', { max: TOOL_VIEW_LIMITS.visible, maxSize: size(TOOL_VIEW_LIMITS.bytes) })}
        </p>
        <div class="agent-row-inline">
          <button type="button" class="button primary small" onClick={() => void save()}>
            {t('toolView.save')}
          </button>
        </div>
        <Show when={status()}>
          {(st) => (
            <p
              class={st().ok ? 'field-success' : 'field-error'}
              role={st().ok ? 'status' : 'alert'}
              data-testid="tool-view-status"
            >
              {st().text}
            </p>
          )}
        </Show>
      </Show>
    </section>
  );
}
