// Provider presets for the settings screen. A preset fills protocol, base_url and transport choices only: it never
// switches on thinking or effort from a model name (seed 003), and it never holds a key.
//
// `route` is where the browser sends requests by default: 'direct' when the provider answers CORS preflights for
// arbitrary origins, 'bridge' (i-bridge `POST /v1/proxy`) otherwise. What we know, and from where:
// - OpenAI: the API answers CORS for any origin (the official SDK only asks for `dangerouslyAllowBrowser`).
// - Anthropic: CORS is allowed when the request carries `anthropic-dangerous-direct-browser-access: true`.
// - OpenRouter: documents browser use; CORS open.
// - DeepSeek: browser clients call it directly in practice; not verified from this machine (no internet), so the
//   Test connection button is the judge. Switch to 'bridge' if it reports E_NETWORK.
// - Ollama: allows only localhost-ish origins unless OLLAMA_ORIGINS lists the app's origin → bridge by default.
// - LM Studio: CORS is off until "Enable CORS" is switched on in its server settings → bridge by default.
// - llama.cpp `llama-server`: sends `Access-Control-Allow-Origin: *` → direct. Chrome may show a Local Network
//   Access prompt for loopback servers when the app is served from a public origin.
import type { BuiltinProtocol } from './registry';

export type Route = 'direct' | 'bridge';

export interface ProviderPreset {
  id: string;
  label: string;
  protocol: BuiltinProtocol;
  base_url: string;
  /** Suggested name of the credential entry (environment variable in the CLI); null when no key is needed. */
  api_key_env: string | null;
  use_max_tokens: boolean;
  route: Route;
  /** Why this route, in one sentence for the settings screen. */
  routeNote: string;
  local: boolean;
}

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  {
    id: 'openai',
    label: 'OpenAI (Chat Completions)',
    protocol: 'openai',
    base_url: 'https://api.openai.com/v1',
    api_key_env: 'OPENAI_API_KEY',
    use_max_tokens: false,
    route: 'direct',
    routeNote: 'The OpenAI API allows browser requests (CORS).',
    local: false,
  },
  {
    id: 'openai-responses',
    label: 'OpenAI (Responses)',
    protocol: 'responses',
    base_url: 'https://api.openai.com/v1',
    api_key_env: 'OPENAI_API_KEY',
    use_max_tokens: false,
    route: 'direct',
    routeNote: 'The OpenAI API allows browser requests (CORS).',
    local: false,
  },
  {
    id: 'anthropic',
    label: 'Anthropic',
    protocol: 'anthropic',
    base_url: 'https://api.anthropic.com',
    api_key_env: 'ANTHROPIC_API_KEY',
    use_max_tokens: false,
    route: 'direct',
    routeNote:
      'Anthropic allows browser requests that send anthropic-dangerous-direct-browser-access: true (done for you).',
    local: false,
  },
  {
    id: 'deepseek',
    label: 'DeepSeek',
    protocol: 'deepseek',
    base_url: 'https://api.deepseek.com',
    api_key_env: 'DEEPSEEK_API_KEY',
    use_max_tokens: true,
    route: 'direct',
    routeNote: 'Believed to allow browser requests; if Test connection reports a network error, switch to the bridge.',
    local: false,
  },
  {
    id: 'openrouter',
    label: 'OpenRouter',
    protocol: 'openai',
    base_url: 'https://openrouter.ai/api/v1',
    api_key_env: 'OPENROUTER_API_KEY',
    use_max_tokens: true,
    route: 'direct',
    routeNote: 'OpenRouter allows browser requests (CORS).',
    local: false,
  },
  {
    id: 'ollama',
    label: 'Ollama (local)',
    protocol: 'openai',
    base_url: 'http://127.0.0.1:11434/v1',
    api_key_env: null,
    use_max_tokens: true,
    route: 'bridge',
    routeNote: 'Ollama refuses other origins unless OLLAMA_ORIGINS includes this app; the bridge avoids that.',
    local: true,
  },
  {
    id: 'lm-studio',
    label: 'LM Studio (local)',
    protocol: 'openai',
    base_url: 'http://127.0.0.1:1234/v1',
    api_key_env: null,
    use_max_tokens: true,
    route: 'bridge',
    routeNote: 'LM Studio answers CORS only after "Enable CORS" is switched on; the bridge works either way.',
    local: true,
  },
  {
    id: 'llama-cpp',
    label: 'llama.cpp server (local)',
    protocol: 'openai',
    base_url: 'http://127.0.0.1:8080/v1',
    api_key_env: null,
    use_max_tokens: true,
    route: 'direct',
    routeNote: 'llama-server allows any origin; Chrome may ask to allow local network access.',
    local: true,
  },
];

export function findPreset(id: string): ProviderPreset | undefined {
  return PROVIDER_PRESETS.find((p) => p.id === id);
}
