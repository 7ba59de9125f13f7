// The provider "In this browser" (protocol `browser`, issue 21) in the app agent: instead of the HTTP transport,
// the loop's stream function runs llama.cpp (web/core/browser-model), imported on first use so that no other
// configuration loads wllama. The context window the engine allocates is the config's budget.context_window.
import type { StreamFn } from '../agent';
import type { ModelConfig } from '../config';
import type { ConnectionReport } from '../smoke';

export const isBrowserModel = (config: Pick<ModelConfig, 'protocol'>) => config.protocol === 'browser';

const settingsOf = (config: ModelConfig) => ({ model: config.model, contextWindow: config.budget?.context_window ?? null });

export function browserModelStream(config: ModelConfig): StreamFn {
  return (call) =>
    (async function* () {
      const { appBrowserStream } = await import('../browser-model/app');
      yield* appBrowserStream(settingsOf(config))(call);
    })();
}

export async function testBrowserModel(config: ModelConfig, signal?: AbortSignal): Promise<ConnectionReport> {
  const { testBrowserModel: test } = await import('../browser-model/app');
  return test(settingsOf(config), signal);
}
