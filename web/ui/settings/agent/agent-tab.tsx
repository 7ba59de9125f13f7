// Settings → Agent: the profile (standard/full) and the modules it runs, compaction, the prompt cache mode and the
// replacement system prompt. Saved globally or for one workspace (its own settings replace the global ones as a
// whole), validated by the modules' own parsers; each turn reads them when it starts. Loaded lazily.
import './agent-tab.css';
import { createSignal, createUniqueId, For, Show } from 'solid-js';
import { checkAgentModules, DEFAULT_AGENT_MODULES, readStoredModules, saveAgentModules } from '../../../core/page';
import { OFFERED_MODULES, PROFILE_MODULES, PROFILE_NAMES, type ModuleName } from '../../../core/page';
import { DEFAULT_SYSTEM_PROMPT } from '../../../core/page';
import type { MessageKey } from '../../i18n/en';
import type { AppState } from '../../state/app-state';
import { ScopeField } from '../scope-field';
import { RulesSection } from './rules-section';
import { ToolViewSection } from './tool-view-section';
import { SkillsSection } from './skills-section';
import { codeOf, messageOf } from '../../state/errors';
import { CACHE_CHOICES, formFromModules, modulesFromForm, type AgentForm } from './agent-form';
import {
  BindingsField,
  CacheExtraFields,
  CompactPromptField,
  DenyToolsField,
  SkillWorkspacesField,
  WebSearchField,
} from './agent-extra-fields';

const errorText = (error: unknown) => `${codeOf(error) ?? 'E_AGENT_MODULES_INVALID'}: ${messageOf(error)}`;

export default function AgentTab(props: { state: AppState }) {
  const s = props.state;
  const t = s.t;
  const id = createUniqueId();
  const f = (name: string) => `${id}-${name}`;
  const [scope, setScope] = createSignal<string | null>(null);
  const [form, setForm] = createSignal<AgentForm>(formFromModules(DEFAULT_AGENT_MODULES));
  const [inherits, setInherits] = createSignal(false);
  const [stored, setStored] = createSignal<{ error: string; raw: string } | null>(null);
  const [status, setStatus] = createSignal<{ ok: boolean; text: string } | null>(null);
  const [loaded, setLoaded] = createSignal(false);
  const patch = (p: Partial<AgentForm>) => setForm((cur) => ({ ...cur, ...p }));

  async function load(workspaceId: string | null) {
    setStatus(null);
    setStored(null);
    const own = await readStoredModules(s.db, workspaceId);
    setInherits(workspaceId !== null && own === null);
    const raw = own ?? (workspaceId ? await readStoredModules(s.db, null) : null);
    try {
      setForm(formFromModules(raw === null ? DEFAULT_AGENT_MODULES : checkAgentModules(raw)));
    } catch (error) {
      // Bad stored data is shown, never rewritten until the person saves.
      setForm(formFromModules(DEFAULT_AGENT_MODULES));
      setStored({ error: errorText(error), raw: JSON.stringify(raw, null, 2) });
    }
    setLoaded(true);
  }
  void load(null);

  const inProfile = (m: ModuleName) => PROFILE_MODULES[form().profile].includes(m);
  const toggle = (m: ModuleName, on: boolean) =>
    patch({ disabled: on ? form().disabled.filter((x) => x !== m) : [...form().disabled.filter((x) => x !== m), m] });
  const promptChars = () => Array.from(form().prompt).length;

  async function save(event: SubmitEvent) {
    event.preventDefault();
    setStatus(null);
    try {
      await saveAgentModules(s.db, scope(), modulesFromForm(form()));
      setInherits(false);
      setStored(null);
      setStatus({ ok: true, text: t('agent.saved') });
      s.settingsChanged();
    } catch (error) {
      setStatus({ ok: false, text: errorText(error) });
    }
  }
  async function removeOverride() {
    const w = scope();
    if (!w) return;
    await s.attempt(() => saveAgentModules(s.db, w, null));
    s.settingsChanged();
    await load(w);
  }

  return (
    <Show when={loaded()}>
      <form class="form agent-form" onSubmit={save} data-testid="agent-settings">
        <p class="field-hint">{t('agent.intro')}</p>
        <ScopeField
          id={f('scope')}
          label={t('agent.scope')}
          globalLabel={t('agent.scopeGlobal')}
          workspaceLabel={(name) => t('agent.scopeWorkspace', { name })}
          workspaces={s.workspaces()}
          scope={scope()}
          onChange={(v) => {
            setScope(v);
            void load(v);
          }}
          inherits={inherits()}
          inheritsText={t('agent.useGlobal')}
          removeText={t('agent.removeOverride')}
          onRemove={() => void removeOverride()}
        />
        <Show when={stored()}>
          {(bad) => (
            <div role="alert" data-testid="agent-stored-invalid">
              <p class="field-error">{t('agent.storedInvalid', { error: bad().error })}</p>
              <details>
                <summary>{t('agent.storedRaw')}</summary>
                <pre class="agent-raw">{bad().raw}</pre>
              </details>
            </div>
          )}
        </Show>

        <fieldset class="choice-group">
          <legend>{t('agent.profile')}</legend>
          <For each={PROFILE_NAMES}>
            {(p) => (
              <label class="choice">
                <input
                  type="radio"
                  name={f('profile')}
                  value={p}
                  checked={form().profile === p}
                  onChange={() => patch({ profile: p })}
                />
                <span>
                  <strong>{t(`agent.profile.${p}` as MessageKey)}</strong>
                  <span class="agent-hint">{t(`agent.profile.${p}Hint` as MessageKey)}</span>
                </span>
              </label>
            )}
          </For>
        </fieldset>

        <fieldset class="choice-group">
          <legend>{t('agent.modules')}</legend>
          <p class="field-hint">{t('agent.modulesHint')}</p>
          <div class="agent-modules">
            {/* `search` is not offered: it adds nothing (glob and search are core tools), see module-effects.ts. */}
            <For each={OFFERED_MODULES}>
              {(m) => (
                <label class="checkbox" classList={{ disabled: !inProfile(m) }}>
                  <input
                    type="checkbox"
                    name={`module-${m}`}
                    checked={inProfile(m) && !form().disabled.includes(m)}
                    disabled={!inProfile(m)}
                    onChange={(e) => toggle(m, e.currentTarget.checked)}
                  />
                  <span>
                    <code>{m}</code>
                    <span class="agent-hint">
                      {t(`agent.module.${m}` as MessageKey)}
                      {inProfile(m) ? '' : ` (${t('agent.notInProfile')})`}
                    </span>
                  </span>
                </label>
              )}
            </For>
          </div>
          <DenyToolsField id={f} form={form()} patch={patch} t={t} />
        </fieldset>

        <BindingsField id={f} form={form()} patch={patch} t={t} />
        <SkillWorkspacesField
          id={f}
          form={form()}
          patch={patch}
          t={t}
          workspaces={s.workspaces()}
          self={scope() ?? s.selected()?.id ?? null}
        />

        <fieldset class="choice-group">
          <legend>{t('agent.compact')}</legend>
          <label class="checkbox">
            <input
              type="checkbox"
              checked={form().compactEnabled}
              onChange={(e) => patch({ compactEnabled: e.currentTarget.checked })}
            />
            <span>{t('agent.compactEnabled')}</span>
          </label>
          <div class="agent-row">
            <div class="field">
              <label for={f('keep')}>{t('agent.keepRecent')}</label>
              <input
                id={f('keep')}
                type="number"
                min="1"
                max="10000"
                step="1"
                value={form().keepRecent}
                onInput={(e) => patch({ keepRecent: e.currentTarget.value })}
              />
              <p class="field-hint">{t('agent.keepRecentHint')}</p>
            </div>
            <div class="field">
              <label for={f('images')}>{t('agent.images')}</label>
              <select
                id={f('images')}
                value={form().images}
                onChange={(e) => patch({ images: e.currentTarget.value === 'drop' ? 'drop' : 'keep' })}
              >
                <option value="keep">{t('agent.imagesKeep')}</option>
                <option value="drop">{t('agent.imagesDrop')}</option>
              </select>
            </div>
          </div>
          <CompactPromptField id={f} form={form()} patch={patch} t={t} />
        </fieldset>

        <fieldset class="choice-group">
          <legend>{t('agent.cache')}</legend>
          <div class="field">
            <label for={f('cache')}>{t('agent.cacheMode')}</label>
            <select
              id={f('cache')}
              value={form().cache}
              onChange={(e) => patch({ cache: CACHE_CHOICES.find((c) => c === e.currentTarget.value) ?? 'observe' })}
            >
              <For each={CACHE_CHOICES}>{(c) => <option value={c}>{t(`agent.cache.${c}` as MessageKey)}</option>}</For>
            </select>
            <p class="field-hint">{t('agent.cacheNote')}</p>
          </div>
          <CacheExtraFields id={f} form={form()} patch={patch} t={t} />
        </fieldset>

        <WebSearchField id={f} form={form()} patch={patch} t={t} />

        <div class="field">
          <label for={f('prompt')}>{t('agent.prompt')}</label>
          <textarea
            id={f('prompt')}
            class="agent-prompt"
            rows="8"
            spellcheck={false}
            value={form().prompt}
            onInput={(e) => patch({ prompt: e.currentTarget.value })}
          />
          <p class="field-hint">{t('agent.promptHint')}</p>
          <div class="agent-row-inline">
            <span class="meta-text" classList={{ 'field-error': promptChars() > 32_000 }}>
              {t('agent.promptCount', { count: promptChars() })}
            </span>
            <button
              type="button"
              class="button small"
              disabled={form().prompt === ''}
              onClick={() => patch({ prompt: '' })}
            >
              {t('agent.promptDefault')}
            </button>
            <button type="button" class="button small" onClick={() => patch({ prompt: DEFAULT_SYSTEM_PROMPT })}>
              {t('agent.promptStartFrom')}
            </button>
          </div>
        </div>

        <div class="agent-row-inline">
          <button type="submit" class="button primary">
            {t('agent.save')}
          </button>
          <Show when={status()}>
            {(st) => (
              <p
                class={st().ok ? 'field-success' : 'field-error'}
                role={st().ok ? 'status' : 'alert'}
                data-testid="agent-status"
              >
                {st().text}
              </p>
            )}
          </Show>
        </div>
      </form>
      <RulesSection state={s} scope={scope()} />
      <ToolViewSection state={s} scope={scope()} />
      <SkillsSection state={s} scope={scope()} lend={form().skillWorkspaces} />
    </Show>
  );
}
