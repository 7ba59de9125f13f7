// The headless runner's view of the model config (seed 000 §4). Parsing and validation are web/core/config's
// (one parser for the app and the CLI); this file only names the file in errors and turns the config's
// `budget` into the loop's budget settings.
//
// Defaults (web/core/config MODEL_CONFIG_DEFAULTS): protocol "openai", max_tokens 4096, use_max_tokens false,
// extra_body {}, io_limit_bytes 1 MiB, provider_operations false, no budget. Budget defaults (seed 000 §7):
// threshold .8, safety_ratio .02, tool_output_ratio .02, output_reserve = max_tokens, image_tokens 1600. Without
// budget.context_window a profile that meters or compacts is refused when the run starts (checkProfileConfig in
// run.ts, E_CONFIG_BUDGET_WINDOW): the core has no model capacity table to guess from.
import { budgetOf } from '../agent';
import { parseModelConfig as parseShared, MODEL_CONFIG_DEFAULTS, type ModelConfig } from '../config';
import { HarnessError, toErrorData } from '../contracts';
import type { BudgetSettings } from '../hooks';

export type { ModelConfig };
export const DEFAULT_MAX_TOKENS = MODEL_CONFIG_DEFAULTS.max_tokens;
export const DEFAULT_IO_LIMIT_BYTES = MODEL_CONFIG_DEFAULTS.io_limit_bytes;

export interface HeadlessModelConfig {
  config: ModelConfig;
  budget: BudgetSettings | null;
}

/** Validates the parsed JSON of a model config file; errors keep the shared parser's code and path. */
export function parseModelConfig(value: unknown, file: string): HeadlessModelConfig {
  let config: ModelConfig;
  // The shared parser reads a string as JSON text (the app hands it a pasted config); the file was parsed already,
  // so a JSON string at the root is a wrong file, never a config to parse a second time.
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HarnessError(
      'E_CONFIG_INVALID',
      `The model config ${file} is invalid. At (root): expected a JSON object such as {"base_url": "http://127.0.0.1:11434/v1", "model": "..."}.`,
      { file, path: '(root)' },
    );
  }
  try {
    config = parseShared(value);
  } catch (error) {
    const e = toErrorData(error, 'E_CONFIG_INVALID');
    throw new HarnessError(e.code, `The model config ${file} is invalid. ${e.message}`, { file, ...e.data });
  }
  // Issue 21: protocol "browser" is a model stored in a browser tab's private storage; a terminal has neither.
  if (config.protocol === 'browser') {
    throw new HarnessError(
      'E_CONFIG_UNSUPPORTED',
      `The model config ${file} uses protocol "browser", which runs a model inside the app's browser tab. For i, serve the GGUF with llama.cpp's llama-server and use {"protocol": "openai", "base_url": "http://127.0.0.1:8080/v1"}.`,
      { file, path: 'protocol' },
    );
  }
  return { config, budget: budgetSettings(config, file) };
}

export function budgetSettings(config: ModelConfig, file: string): BudgetSettings | null {
  const settings = budgetOf(config);
  if (!settings) return null;
  if (settings.max_tokens >= settings.context_window) {
    throw new HarnessError(
      'E_CONFIG_INVALID',
      `The model config ${file} is invalid. At budget: the output reserve (${settings.max_tokens}) must be smaller than context_window (${settings.context_window}).`,
      { file },
    );
  }
  return settings;
}
