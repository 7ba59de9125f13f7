// The first-run setup's decisions, pure so Node tests can pin them: the form a choice of provider starts from, which
// connection notes (CORS, Local Network Access, OLLAMA_ORIGINS) the chosen server needs, whether it takes a key, and
// the starter prompts offered once a model works. The dialog (setup-dialog.tsx) only renders these.
import { findPreset, type ProviderPreset } from '../../core/page';
import { CUSTOM_PRESET, emptyForm, formFromPreset, type ProviderForm } from '../settings/providers/provider-form';
import type { OnboardingKey } from './onboarding-strings';

export type SetupStep = 1 | 2 | 3;

/**
 * A model to start from, so a first-time person has a working name to test (they can type another). Only names
 * the providers document as current general models; a preset itself never names one (presets.ts, seed 003), and
 * nothing here switches on thinking. Local servers serve whatever was pulled, so they start empty.
 */
const SUGGESTED_MODEL: Readonly<Record<string, string>> = {
  openai: 'gpt-4.1',
  'openai-responses': 'gpt-4.1',
  anthropic: 'claude-sonnet-4-5',
  deepseek: 'deepseek-chat',
  openrouter: 'openai/gpt-4.1',
};

/** The key name a custom server's key is stored under unless the person names it otherwise. */
export const CUSTOM_KEY_NAME = 'CUSTOM_API_KEY';

/** The form after choosing a provider card: the preset's protocol, address, route and key name, a model to start. */
export function formForChoice(choice: string, current?: ProviderForm): ProviderForm {
  const preset = findPreset(choice);
  if (!preset) {
    const keep = current?.preset === CUSTOM_PRESET ? current : undefined;
    return (
      keep ?? {
        ...emptyForm(),
        preset: CUSTOM_PRESET,
        protocol: 'openai',
        base_url: '',
        model: '',
        api_key_env: CUSTOM_KEY_NAME,
        route: 'direct',
      }
    );
  }
  const form = formFromPreset(preset, current);
  return { ...form, model: form.model || (SUGGESTED_MODEL[preset.id] ?? '') };
}

/** Whether the key step asks for a key: every remote preset and a custom server do; local presets need none. */
export function takesKey(form: ProviderForm): boolean {
  const preset = findPreset(form.preset);
  return preset ? preset.api_key_env !== null : true;
}

/** Loopback, private ranges and `.local` names: where Chrome's Local Network Access prompt applies. */
export function isLocalAddress(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local') || host === '[::1]') return true;
  const ip = /^(\d+)\.(\d+)\.\d+\.\d+$/.exec(host);
  if (!ip) return false;
  const [a, b] = [Number(ip[1]), Number(ip[2])];
  return (
    a === 127 || a === 10 || (a === 192 && b === 168) || (a === 172 && b >= 16 && b <= 31) || (a === 169 && b === 254)
  );
}

export interface SetupNote {
  key: OnboardingKey;
  params?: Record<string, string>;
  /** A command to run, shown as code with a Copy button. */
  command?: string;
}

/** The command that lets Ollama answer this app: its origin check reads OLLAMA_ORIGINS at start. */
export const ollamaCommand = (origin: string) => `OLLAMA_ORIGINS=${origin} ollama serve`;

/** What the person must know for the chosen server to answer a browser at `origin`, in the order to read it. */
export function connectionNotes(form: ProviderForm, origin: string): SetupNote[] {
  const preset: ProviderPreset | undefined = findPreset(form.preset);
  const notes: SetupNote[] = [];
  if (preset?.id === 'ollama') notes.push({ key: 'ob.noteOllama', command: ollamaCommand(origin) });
  if (preset?.id === 'lm-studio') notes.push({ key: 'ob.noteLmStudio' });
  if (form.route === 'bridge') {
    notes.push({ key: 'ob.noteBridge' });
    return notes;
  }
  if (!preset) notes.push({ key: 'ob.noteCorsCustom', params: { origin } });
  else if (!preset.local)
    notes.push({
      key: preset.id === 'deepseek' ? 'ob.noteCorsUnsure' : 'ob.noteCors',
      params: { provider: preset.label.replace(/ \(.*\)$/, ''), origin },
    });
  // A public site reaching a local server triggers Chrome's prompt; a site served from this computer does not.
  if (isLocalAddress(form.base_url) && !isLocalAddress(origin)) notes.push({ key: 'ob.noteLocalNetwork' });
  return notes;
}

export interface StarterPrompt {
  key: OnboardingKey;
  params?: Record<string, string>;
}

/** Files that say the most about a project, in the order worth asking about; then any other top-level file. */
const TELLING_FILES = [
  'package.json',
  'pyproject.toml',
  'Cargo.toml',
  'go.mod',
  'pom.xml',
  'build.gradle',
  'Makefile',
  'CMakeLists.txt',
  'Dockerfile',
];
const DULL_FILE =
  /^(\.|readme|license|licence|changelog|copying|notice)|\.(lock|log|png|jpe?g|gif|webp|ico|svg|pdf|zip)$|-lock\.(json|yaml)$/i;

/** The top-level file a "What does … do?" prompt names, or null when the workspace has none worth asking about. */
export function tellingFile(entries: readonly { name: string; directory: boolean }[]): string | null {
  const files = entries.filter((e) => !e.directory).map((e) => e.name);
  return TELLING_FILES.find((name) => files.includes(name)) ?? files.find((name) => !DULL_FILE.test(name)) ?? null;
}

/** Three general prompts about the workspace, and a fourth about one of its own files when it has one. */
export function starterPrompts(entries: readonly { name: string; directory: boolean }[]): StarterPrompt[] {
  const prompts: StarterPrompt[] = [
    { key: 'ob.starter.structure' },
    { key: 'ob.starter.todos' },
    { key: 'ob.starter.tests' },
  ];
  const file = tellingFile(entries);
  if (file) prompts.push({ key: 'ob.starter.file', params: { file } });
  return prompts;
}
