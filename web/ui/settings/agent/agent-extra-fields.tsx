// Settings → Agent fields that give the app what headless i reads from approval.json (deny_tools), compact.json /
// prompts.json (the compaction prompt), cache.json (namespace, target_hit_ratio) and web.json (search). Plain
// inputs over the form state; agent-form.ts converts them and the modules' parsers check them on save.
import { For, Show } from 'solid-js';
import { OFFERED_MODULES, PROFILE_MODULES, type ModuleName } from '../../../core/page';
import type { Translate } from '../../i18n/i18n';
import type { AgentForm } from './agent-form';

/** Modules a worker can serve: not `web` (web_fetch is the bridge's own tool) and not `search` (nothing to replace). */
const BINDABLE = OFFERED_MODULES.filter((m) => m !== 'web');

interface FieldProps {
  /** Makes the ids of this form's controls unique. */
  id: (name: string) => string;
  form: AgentForm;
  patch: (p: Partial<AgentForm>) => void;
  t: Translate;
}

export function DenyToolsField(props: FieldProps) {
  return (
    <div class="field">
      <label for={props.id('deny')}>{props.t('agent.denyTools')}</label>
      <input
        id={props.id('deny')}
        class="agent-mono"
        type="text"
        spellcheck={false}
        autocomplete="off"
        value={props.form.denyTools}
        onInput={(e) => props.patch({ denyTools: e.currentTarget.value })}
      />
      <p class="field-hint">{props.t('agent.denyToolsHint')}</p>
    </div>
  );
}

export function CompactPromptField(props: FieldProps) {
  return (
    <div class="field">
      <label for={props.id('compact-prompt')}>{props.t('agent.compactPrompt')}</label>
      <textarea
        id={props.id('compact-prompt')}
        class="agent-prompt"
        rows="4"
        spellcheck={false}
        value={props.form.compactPrompt}
        onInput={(e) => props.patch({ compactPrompt: e.currentTarget.value })}
      />
      <p class="field-hint">{props.t('agent.compactPromptHint')}</p>
    </div>
  );
}

export function CacheExtraFields(props: FieldProps) {
  return (
    <div class="agent-row">
      <div class="field">
        <label for={props.id('namespace')}>{props.t('agent.cacheNamespace')}</label>
        <input
          id={props.id('namespace')}
          class="agent-mono"
          type="text"
          spellcheck={false}
          autocomplete="off"
          value={props.form.cacheNamespace}
          onInput={(e) => props.patch({ cacheNamespace: e.currentTarget.value })}
        />
        <p class="field-hint">{props.t('agent.cacheNamespaceHint')}</p>
      </div>
      <div class="field">
        <label for={props.id('target')}>{props.t('agent.cacheTarget')}</label>
        <input
          id={props.id('target')}
          type="text"
          inputmode="decimal"
          autocomplete="off"
          value={props.form.targetHitRatio}
          onInput={(e) => props.patch({ targetHitRatio: e.currentTarget.value })}
        />
        <p class="field-hint">{props.t('agent.cacheTargetHint')}</p>
      </div>
    </div>
  );
}

export function WebSearchField(props: FieldProps) {
  return (
    <div class="field">
      <label for={props.id('web-search')}>{props.t('agent.webSearch')}</label>
      <textarea
        id={props.id('web-search')}
        class="agent-prompt"
        rows="6"
        spellcheck={false}
        placeholder={
          '{"url": "https://…", "method": "GET", "params": {"q": "{query}"}, "results": {"items": "results", "title": "title", "url": "url"}}'
        }
        value={props.form.webSearch}
        onInput={(e) => props.patch({ webSearch: e.currentTarget.value })}
      />
      <p class="field-hint">{props.t('agent.webSearchHint')}</p>
    </div>
  );
}

/** bindings.json in the app: which modules the paired i-bridge serves instead of the built-in ones (no fallback). */
export function BindingsField(props: FieldProps) {
  const toggle = (m: ModuleName, on: boolean) =>
    props.patch({
      bound: on ? [...props.form.bound.filter((x) => x !== m), m] : props.form.bound.filter((x) => x !== m),
    });
  return (
    <fieldset class="choice-group">
      <legend>{props.t('agent.bindings')}</legend>
      <p class="field-hint">{props.t('agent.bindingsHint')}</p>
      <div class="agent-modules">
        <For each={BINDABLE.filter((m) => PROFILE_MODULES[props.form.profile].includes(m))}>
          {(m) => (
            <label class="checkbox">
              <input
                type="checkbox"
                aria-label={props.t('agent.bindModule', { module: m })}
                checked={props.form.bound.includes(m)}
                onChange={(e) => toggle(m, e.currentTarget.checked)}
              />
              <code>{m}</code>
            </label>
          )}
        </For>
      </div>
    </fieldset>
  );
}

/** skills.json `roots` in the app: other workspaces whose folders are read as folders of skills. */
export function SkillWorkspacesField(
  props: FieldProps & { workspaces: readonly { id: string; name: string }[]; self: string | null },
) {
  const others = () => props.workspaces.filter((w) => w.id !== props.self);
  const toggle = (id: string, on: boolean) =>
    props.patch({
      skillWorkspaces: on
        ? [...props.form.skillWorkspaces.filter((x) => x !== id), id]
        : props.form.skillWorkspaces.filter((x) => x !== id),
    });
  return (
    <fieldset class="choice-group">
      <legend>{props.t('agent.skillWorkspaces')}</legend>
      <p class="field-hint">{props.t('agent.skillWorkspacesHint')}</p>
      <Show when={others().length > 0} fallback={<p class="field-hint">{props.t('agent.skillWorkspacesNone')}</p>}>
        <div class="agent-modules">
          <For each={others()}>
            {(w) => (
              <label class="checkbox">
                <input
                  type="checkbox"
                  aria-label={props.t('agent.skillWorkspaceUse', { name: w.name })}
                  checked={props.form.skillWorkspaces.includes(w.id)}
                  onChange={(e) => toggle(w.id, e.currentTarget.checked)}
                />
                <span>{w.name}</span>
              </label>
            )}
          </For>
        </div>
      </Show>
    </fieldset>
  );
}
