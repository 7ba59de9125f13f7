// Small instruct models that fit a browser tab, as data (names and links, never weights). Listed 2026-12-02; the
// sizes are approximate Q4_K_M/Q8_0 file sizes and the addresses the publishers' own Hugging Face repositories.
// A person picks one, the browser downloads it (model-store.ts); nothing here is fetched by the app on its own.
export interface SuggestedModel {
  name: string;
  /** Approximate download size in MB. */
  sizeMb: number;
  licence: string;
  /** The model page. */
  page: string;
  /** The .gguf file itself. */
  url: string;
}

export const SUGGESTED_MODELS_DATE = '2026-12-02';

export const SUGGESTED_MODELS: readonly SuggestedModel[] = [
  {
    name: 'Qwen2.5 0.5B Instruct (Q4_K_M)',
    sizeMb: 490,
    licence: 'Apache-2.0',
    page: 'https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF',
    url: 'https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct-GGUF/resolve/main/qwen2.5-0.5b-instruct-q4_k_m.gguf',
  },
  {
    name: 'Qwen3 0.6B (Q8_0)',
    sizeMb: 640,
    licence: 'Apache-2.0',
    page: 'https://huggingface.co/Qwen/Qwen3-0.6B-GGUF',
    url: 'https://huggingface.co/Qwen/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q8_0.gguf',
  },
  {
    name: 'Qwen2.5 1.5B Instruct (Q4_K_M)',
    sizeMb: 1120,
    licence: 'Apache-2.0',
    page: 'https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF',
    url: 'https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q4_k_m.gguf',
  },
  {
    name: 'SmolLM2 1.7B Instruct (Q4_K_M)',
    sizeMb: 1060,
    licence: 'Apache-2.0',
    page: 'https://huggingface.co/HuggingFaceTB/SmolLM2-1.7B-Instruct-GGUF',
    url: 'https://huggingface.co/HuggingFaceTB/SmolLM2-1.7B-Instruct-GGUF/resolve/main/smollm2-1.7b-instruct-q4_k_m.gguf',
  },
];
