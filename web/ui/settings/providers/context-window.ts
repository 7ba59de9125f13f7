// Settings → Model's context window: filled from what knows it (the preset's dated table, else the server's model
// list), shown with where it came from, and asked of the person only when nothing knows it (seed 003 requires a
// window that matches the model; an empty field with a grey example is not one). What the person typed, or what was
// saved with the config, is never replaced.
import { createEffect, createMemo, createSignal, on, onCleanup, type Accessor } from 'solid-js';
import {
  findServerContextWindow,
  getSecret,
  isBuiltinProtocol,
  pairedBridge,
  presetContextWindow,
  type HarnessDb,
  type ServerKind,
} from '../../../core/page';
import { codeOf, messageOf } from '../../state/errors';
import { CUSTOM_PRESET, type ProviderForm } from './provider-form';

/** Where the value in the field came from. */
export type WindowOrigin =
  | { kind: 'typed' }
  | { kind: 'saved' }
  | { kind: 'preset'; source: string; as_of: string }
  | { kind: 'server'; field: string; from: string };

/** What is known about the window when the field is empty. */
export type WindowLookup =
  { state: 'idle' } | { state: 'looking' } | { state: 'unknown'; reason: 'not-stated' | 'no-list'; error?: string };

/** How to find the window for this form: the preset's table, the server's list, or nothing can (a custom protocol). */
export type WindowPlan =
  | { kind: 'wait' }
  | { kind: 'preset'; window: number; source: string; as_of: string }
  | { kind: 'server'; server: ServerKind | null }
  | { kind: 'none' };

const SERVER_OF_PRESET: Record<string, ServerKind> = { ollama: 'ollama', 'lm-studio': 'lm-studio' };

/** Pure: what would find the window of the form's model. */
export function windowPlan(form: ProviderForm): WindowPlan {
  if (!form.model.trim() || !form.base_url.trim()) return { kind: 'wait' };
  const known = form.preset === CUSTOM_PRESET ? undefined : presetContextWindow(form.preset, form.model);
  if (known) return { kind: 'preset', ...known };
  // A custom protocol is served by a provider worker, which has no model list; the in-browser model saves its own.
  if (!isBuiltinProtocol(form.protocol)) return { kind: 'none' };
  return { kind: 'server', server: SERVER_OF_PRESET[form.preset] ?? null };
}

/** Waits this long after the last change of address, model or key before asking the server. */
export const LOOKUP_DELAY_MS = 700;

export interface WindowFill {
  origin: Accessor<WindowOrigin | null>;
  lookup: Accessor<WindowLookup>;
  /** The person typed in the field (empty: nothing typed, so what knows the window may fill it again). */
  typed(value: string): void;
  /** A config is about to be loaded into the form (call before setting it, then `recheck`). */
  loading(next: ProviderForm): void;
  /** Looks again for what the form's fields say (after a load). */
  recheck(): void;
  /** Resolves once a pending look-up has answered (Save waits for it rather than asking needlessly). */
  settled(): Promise<void>;
}

export function createWindowFill(options: {
  db: HarnessDb;
  form: Accessor<ProviderForm>;
  setWindow: (value: string) => void;
  /** The key being typed (not stored yet): the list is asked with it. */
  typedKey: Accessor<string>;
}): WindowFill {
  const [origin, setOrigin] = createSignal<WindowOrigin | null>(null);
  const [lookup, setLookup] = createSignal<WindowLookup>({ state: 'idle' });
  // Only what the person typed stays when the model changes; a saved value belonged to the saved model.
  const auto = () => origin()?.kind !== 'typed';
  const identityOf = (f: ProviderForm) =>
    [f.preset, f.protocol, f.base_url.trim(), f.model.trim(), f.api_key_env.trim(), f.route].join('\n');
  let savedIdentity: string | null = null;
  let ticket = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pending: Promise<void> = Promise.resolve();
  let finish: () => void = () => undefined;
  const controller = { current: null as AbortController | null };
  onCleanup(() => {
    clearTimeout(timer);
    controller.current?.abort();
    finish();
  });

  function cancel() {
    ticket++;
    clearTimeout(timer);
    controller.current?.abort();
    controller.current = null;
    finish();
  }

  function refill() {
    cancel();
    const form = options.form();
    if (!auto()) return setLookup({ state: 'idle' });
    // The config as loaded: its saved window stands.
    if (origin()?.kind === 'saved' && identityOf(form) === savedIdentity) return setLookup({ state: 'idle' });
    const plan = windowPlan(form);
    if (origin() !== null) {
      setOrigin(null);
      options.setWindow('');
    }
    if (plan.kind === 'wait') return setLookup({ state: 'idle' });
    if (plan.kind === 'none') return setLookup({ state: 'unknown', reason: 'no-list' });
    if (plan.kind === 'preset') {
      options.setWindow(String(plan.window));
      setOrigin({ kind: 'preset', source: plan.source, as_of: plan.as_of });
      return setLookup({ state: 'idle' });
    }
    const mine = ticket;
    setLookup({ state: 'looking' });
    pending = new Promise<void>((resolve) => (finish = resolve));
    timer = setTimeout(() => void ask(mine, form, plan.server), LOOKUP_DELAY_MS);
  }

  async function ask(mine: number, form: ProviderForm, server: ServerKind | null) {
    const abort = new AbortController();
    controller.current = abort;
    const keyName = form.api_key_env.trim();
    const typed = options.typedKey();
    try {
      const found = await findServerContextWindow({
        config: {
          protocol: form.protocol,
          base_url: form.base_url.trim(),
          api_key_env: keyName || null,
          route: form.route,
          provider: null,
        },
        model: form.model.trim(),
        server,
        getKey: (name) => (name === keyName && typed ? typed : getSecret(options.db, name)),
        getBridge: () => pairedBridge(options.db),
        signal: abort.signal,
      });
      if (mine !== ticket || !auto()) return;
      if (found) {
        options.setWindow(String(found.window));
        setOrigin({ kind: 'server', field: found.field, from: found.from });
        setLookup({ state: 'idle' });
      } else setLookup({ state: 'unknown', reason: 'not-stated' });
    } catch (error) {
      if (mine !== ticket) return;
      setLookup({
        state: 'unknown',
        reason: 'not-stated',
        error: `${codeOf(error) ?? 'E_MODELS_RESPONSE'}: ${messageOf(error)}`,
      });
    } finally {
      if (mine === ticket) finish();
    }
  }

  // What finds the window depends on these fields only (a memo: typing in other fields asks nothing).
  const identity = createMemo(() => identityOf(options.form()));
  createEffect(on(identity, () => refill(), { defer: true }));

  return {
    origin,
    lookup,
    typed(value) {
      cancel();
      setOrigin(value.trim() ? { kind: 'typed' } : null);
      if (!value.trim()) refill();
      else setLookup({ state: 'idle' });
    },
    loading(next) {
      cancel();
      const hasWindow = next.context_window.trim() !== '';
      savedIdentity = hasWindow ? identityOf(next) : null;
      setOrigin(hasWindow ? { kind: 'saved' } : null);
      setLookup({ state: 'idle' });
    },
    recheck: () => refill(),
    settled: () => (lookup().state === 'looking' ? pending : Promise.resolve()),
  };
}
