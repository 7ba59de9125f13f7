// The "Applies to" field shared by the settings tabs that store global or per-workspace values (Model, Agent):
// choose all workspaces or one; for one with its own values, offer to drop them and use the global ones again.
import { For, Show } from 'solid-js';

export interface ScopeFieldProps {
  id: string;
  label: string;
  globalLabel: string;
  workspaceLabel: (name: string) => string;
  workspaces: readonly { id: string; name: string }[];
  /** The chosen workspace id, or null for all workspaces. */
  scope: string | null;
  onChange: (scope: string | null) => void;
  /** True when the chosen workspace has no values of its own. */
  inherits: boolean;
  inheritsText: string;
  removeText: string;
  onRemove: () => void;
}

export function ScopeField(props: ScopeFieldProps) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <select id={props.id} value={props.scope ?? ''} onChange={(e) => props.onChange(e.currentTarget.value || null)}>
        <option value="">{props.globalLabel}</option>
        <For each={props.workspaces}>{(w) => <option value={w.id}>{props.workspaceLabel(w.name)}</option>}</For>
      </select>
      <Show when={props.scope}>
        <p class="field-hint">
          {props.inherits ? (
            props.inheritsText
          ) : (
            <button type="button" class="link-button" onClick={() => props.onRemove()}>
              {props.removeText}
            </button>
          )}
        </p>
      </Show>
    </div>
  );
}
