// The smoke policy of seed 000 §10, one for the app's Test connection and `i smoke`: an explicit, cheap
// connectivity check. Tools are removed (none offered, tool-choosing fields dropped from extra_body), the output is
// capped (1..1024 tokens, default 32; the thinking variant defaults to 1024 because reasoning spends tokens before
// the reply), a tool call in the answer is refused (E_SMOKE_TOOL_CALL), and the cache module only observes: it adds
// no provider field and records into its own statistics (metrics/smoke-cache.json headless, the 'smoke-cache'
// metrics record in the app), never into a workspace's.
import { HarnessError, type ErrorData } from '../contracts';
import { DEFAULT_CACHE_CONFIG, type CacheConfig } from '../modules';
import type { AssistantMessage, PrepareInput } from '../providers';

/** The default output cap (seed 000 §10). */
export const SMOKE_OUTPUT_CAP = 32;
/** The highest cap an explicit --output-cap may set, and the thinking variant's default. */
export const SMOKE_MAX_OUTPUT_CAP = 1024;

/** 'vision' (seed 000 §10's thinking/vision test configs): an image goes with the prompt, capped like 'thinking'. */
export type SmokeVariant = 'plain' | 'thinking' | 'vision';

/** What the smoke request asks; the config's extra_body is kept (a thinking switch lives there). */
export const SMOKE_PROMPT = 'Connection test. Reply with the single word: ok';
/** The vision variant's prompt: the reply shows whether the image reached the model. */
export const SMOKE_IMAGE_PROMPT = 'Connection test with an image. Name what the image shows in at most five words.';

/** The statistics file headless `i smoke` writes, relative to the data folder (never a workspace's state folder). */
export const SMOKE_STATS_FILE = 'metrics/smoke-cache.json';
/** The namespace the smoke statistics are recorded under, apart from every workspace's cache namespace. */
export const SMOKE_NAMESPACE = 'smoke';
/** Observe only: whatever cache.json says, the smoke request gets no provider cache field. */
export const SMOKE_CACHE_CONFIG: CacheConfig = {
  ...DEFAULT_CACHE_CONFIG,
  enabled: true,
  mode: 'observe',
  namespace: SMOKE_NAMESPACE,
  stats: SMOKE_STATS_FILE,
};

/** extra_body fields that would offer or force tools; the smoke request never carries them. */
const TOOL_FIELDS = ['tools', 'tool_choice', 'parallel_tool_calls', 'functions', 'function_call'];

/** The cap for a variant: `requested` when given (an integer 1..1024), else 32 (plain) or 1024 (thinking). */
export function smokeOutputCap(requested: number | null | undefined, variant: SmokeVariant = 'plain'): number {
  if (requested === null || requested === undefined)
    return variant === 'plain' ? SMOKE_OUTPUT_CAP : SMOKE_MAX_OUTPUT_CAP;
  if (!Number.isInteger(requested) || requested < 1 || requested > SMOKE_MAX_OUTPUT_CAP) {
    throw new HarnessError(
      'E_SMOKE_OUTPUT_CAP',
      `The smoke output cap must be a whole number of tokens from 1 to ${SMOKE_MAX_OUTPUT_CAP} (default ${SMOKE_OUTPUT_CAP}; ${SMOKE_MAX_OUTPUT_CAP} with the thinking variant). Choose one in that range.`,
      { requested },
    );
  }
  return requested;
}

export interface SmokeModel {
  protocol: string;
  model: string;
  base_url: string;
  use_max_tokens?: boolean;
  extra_body?: Record<string, unknown>;
}

/** The one request a smoke test sends: the prompt (with the image of the vision variant), no tools, the cap, streamed. */
export function smokeRequestInput(model: SmokeModel, outputCap: number, image?: string): PrepareInput {
  const extra = Object.fromEntries(
    Object.entries(model.extra_body ?? {}).filter(([key]) => !TOOL_FIELDS.includes(key)),
  );
  return {
    version: 1,
    protocol: model.protocol,
    base_url: model.base_url,
    model: model.model,
    history: [
      {
        role: 'user',
        content:
          image === undefined
            ? SMOKE_PROMPT
            : [
                { type: 'text', text: SMOKE_IMAGE_PROMPT },
                { type: 'image_url', image_url: { url: image } },
              ],
      },
    ],
    max_tokens: outputCap,
    compact: false,
    tools: [],
    plugin_tools: [],
    use_max_tokens: model.use_max_tokens ?? false,
    extra_body: extra,
    stream: true,
  };
}

/** The refusal of an answer that calls a tool although none was offered; null when the answer has no tool call. */
export function smokeToolCallRefusal(message: Pick<AssistantMessage, 'tool_calls'>): ErrorData | null {
  const calls = message.tool_calls ?? [];
  if (calls.length === 0) return null;
  // Names come from the model: a few, each bounded, for the sentence and the data.
  const names = calls.slice(0, 5).map((c) => c.function.name.slice(0, 64));
  return new HarnessError(
    'E_SMOKE_TOOL_CALL',
    `The model answered the smoke test with a tool call (${names.join(', ')}) although no tools were offered. Check the model and its extra_body settings; a model that calls tools unasked is not fit for this harness.`,
    { tools: names },
  ).toJSON();
}
