// The provider "In this browser" (protocol `browser`, issue 21) in the app agent: instead of the HTTP transport,
// the loop's stream function runs llama.cpp (web/core/browser-model), imported on first use so that no other
// configuration loads wllama. The context window the engine allocates is the config's budget.context_window; a config
// without one gets, at turn start, the window the engine will load (withLoadedWindow), so the budget always counts it.
import type { StreamFn } from '../agent';
import type { ModelConfig } from '../config';
import type { ConnectionReport } from '../smoke';

export const isBrowserModel = (config: Pick<ModelConfig, 'protocol'>) => config.protocol === 'browser';

/**
 * A browser-model config with `budget.context_window` set: its own, else the window the engine loads for the stored
 * GGUF (its trained context, at most FALLBACK_CONTEXT; memory.ts). Without this the turn ran with no budget (or was
 * refused E_CONFIG_BUDGET_WINDOW) and a long session ran into llama.cpp's context limit. Reads the model's header:
 * a missing or damaged model is refused here, before the turn starts. Other configs are returned as they are.
 */
export async function withLoadedWindow(
  config: ModelConfig,
  open?: (name: string) => Promise<Blob>,
): Promise<ModelConfig> {
  if (!isBrowserModel(config) || config.budget?.context_window !== undefined) return config;
  const { openStoredModel, readGgufHeader, defaultContextWindow } = await import('../browser-model');
  const header = await readGgufHeader(await (open ?? ((name: string) => openStoredModel(name)))(config.model));
  return { ...config, budget: { ...config.budget, context_window: defaultContextWindow(header) } };
}

const settingsOf = (config: ModelConfig) => ({
  model: config.model,
  contextWindow: config.budget?.context_window ?? null,
});

export function browserModelStream(config: ModelConfig): StreamFn {
  return (call) =>
    (async function* () {
      const { appBrowserStream } = await import('../browser-model/lazy');
      yield* appBrowserStream(settingsOf(config))(call);
    })();
}

export async function testBrowserModel(config: ModelConfig, signal?: AbortSignal): Promise<ConnectionReport> {
  const { testBrowserModel: test } = await import('../browser-model/lazy');
  return test(settingsOf(config), signal);
}
