// What the setup dialog edits and asks: the provider form, the key being typed (and whether one is stored under its
// name), the connection report, the server's model names, the problem line, and the two actions that reach out —
// Test connection and the final save — which are Settings → Model's own (provider-form.ts).
import { createEffect, createSignal, on, type Accessor } from 'solid-js';
import { getSecret, listProviderModels, PROVIDER_PRESETS, type ConnectionReport } from '../../core/page';
import { pairedBridge } from '../../core/page';
import { checkModelConfig } from '../../core/page';
import { codeOf, messageOf } from '../state/errors';
import type { AppState } from '../state/app-state';
import { configFromForm, saveModelForm, testModelForm, type ProviderForm } from '../settings/providers/provider-form';
import type { OnboardingTranslate } from './onboarding-strings';
import { formForChoice, takesKey } from './setup-steps';
import { createWindowFill, type WindowFill } from '../settings/providers/context-window';

export interface SetupForm {
  form: Accessor<ProviderForm>;
  /** Changes fields of the form; a report about the old values no longer holds. */
  edit(patch: Partial<ProviderForm>): void;
  /** A provider card was chosen: the form it starts from. */
  choose(choice: string): void;
  key: Accessor<string>;
  setKey(key: string): void;
  /** A key is stored under the form's key name. */
  keyStored: Accessor<boolean>;
  report: Accessor<ConnectionReport | null>;
  problem: Accessor<string>;
  setProblem(text: string): void;
  busy: Accessor<'test' | 'save' | null>;
  /** The context window filled from the preset's table or the server's list (Settings → Model's own). */
  window: WindowFill;
  /** The server's own model names, suggestions for the Model field. */
  models: Accessor<readonly string[]>;
  /** The Connect step opens: forget the last server's names; a server without a key is asked for its own now. */
  openConnect(): void;
  /** Whether the Connect step's form is complete; if not, the problem says what is missing. */
  connectReady(): boolean;
  test(): Promise<void>;
  save(onSaved: () => void): Promise<void>;
  copied: Accessor<boolean>;
  copy(text: string): Promise<void>;
}

export function createSetupForm(s: AppState, t: OnboardingTranslate): SetupForm {
  const [form, setForm] = createSignal<ProviderForm>(formForChoice(PROVIDER_PRESETS[0]!.id));
  const [key, setKey] = createSignal('');
  const [report, setReport] = createSignal<ConnectionReport | null>(null);
  const [problem, setProblem] = createSignal('');
  const [busy, setBusy] = createSignal<'test' | 'save' | null>(null);
  const [copied, setCopied] = createSignal(false);
  const windowFill = createWindowFill({
    db: s.db,
    form,
    setWindow: (value) => setForm((cur) => ({ ...cur, context_window: value })),
    typedKey: key,
  });
  // A plain signal, not a resource: reading a loading resource would suspend the lazy chat view around this dialog.
  const [keyStored, setKeyStored] = createSignal(false);
  const recheckKey = async () => {
    const name = form().api_key_env.trim();
    const stored = name ? (await getSecret(s.db, name)) !== undefined : false;
    if (name === form().api_key_env.trim()) setKeyStored(stored);
  };
  createEffect(
    on(
      () => form().api_key_env,
      () => void recheckKey(),
    ),
  );

  // The server's own model names (GET {base}/models), offered as suggestions for the Model field: asked for when a
  // local server's step opens (no key needed) and after a test succeeds. Silent on failure: Test connection is the
  // place that explains errors.
  const [models, setModels] = createSignal<readonly string[]>([]);
  let listing = 0;
  async function findModels() {
    const ticket = ++listing;
    const current = form();
    try {
      // A placeholder model only to pass the config check: the list request does not name one.
      const config = checkModelConfig(configFromForm({ ...current, model: current.model.trim() || 'x' }));
      const names = await listProviderModels({
        config,
        getKey: (name) => getSecret(s.db, name),
        getBridge: () => pairedBridge(s.db),
      });
      if (ticket !== listing) return;
      setModels(names);
      if (!form().model.trim() && names[0]) setForm((cur) => ({ ...cur, model: names[0]! }));
    } catch {
      if (ticket === listing) setModels([]);
    }
  }

  const failure = (error: unknown) => setProblem(`${codeOf(error) ?? 'E_CONFIG_INVALID'}: ${messageOf(error)}`);

  async function test() {
    setProblem('');
    setReport(null);
    setBusy('test');
    try {
      const typed = Boolean(form().api_key_env.trim() && key());
      const result = await testModelForm(s.db, form(), key());
      setReport(result);
      if (result.ok) void findModels();
      // Stored under its name by the test: the field empties and the key is never shown again.
      if (typed) {
        setKey('');
        await recheckKey();
      }
    } catch (error) {
      failure(error);
    } finally {
      setBusy(null);
    }
  }

  async function save(onSaved: () => void) {
    setProblem('');
    setBusy('save');
    try {
      await saveModelForm(s.db, null, form(), key());
      setKey('');
      s.settingsChanged();
      onSaved();
    } catch (error) {
      failure(error);
      setBusy(null);
    }
  }

  return {
    form,
    edit(patch) {
      setForm((cur) => ({ ...cur, ...patch }));
      setReport(null);
    },
    choose(choice) {
      setForm((cur) => formForChoice(choice, cur));
      setReport(null);
    },
    key,
    setKey: (value) => void setKey(value),
    keyStored,
    report,
    problem,
    setProblem: (text) => void setProblem(text),
    busy,
    window: windowFill,
    models,
    openConnect() {
      setModels([]);
      if (!takesKey(form())) void findModels();
    },
    connectReady() {
      try {
        configFromForm(form());
        // The default profile meters the context budget and compacts, so a turn needs the model's window (seed 003):
        // asked here rather than refused at the first message.
        if (!form().context_window.trim()) {
          setProblem(`E_CONFIG_BUDGET_WINDOW: ${t('ob.windowMissing')}`);
          return false;
        }
        return true;
      } catch (error) {
        failure(error);
        return false;
      }
    },
    test,
    save,
    copied,
    async copy(text) {
      await navigator.clipboard?.writeText(text).then(
        () => setCopied(true),
        () => setCopied(false),
      );
    },
  };
}
