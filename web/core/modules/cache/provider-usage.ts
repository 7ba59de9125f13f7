// Reads token usage from a provider's raw response (what `after_response` sees), per seed 000 §8:
// OpenAI Chat / Responses report cached tokens inside the total input; Anthropic reports plain input, cache read
// and cache creation separately (their sum is the total; creation is not a hit); DeepSeek partitions the input
// into hit and miss. Anything missing, negative, fractional or inconsistent is `null` (unknown), never 0.
export interface InputUsage {
  /** All input tokens of the request. */
  input: number;
  /** Input tokens read from the provider's prompt cache. */
  cacheRead: number;
  /** Output tokens (null when the response did not say). */
  output: number | null;
}

const rec = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
const count = (v: unknown): number | undefined =>
  Number.isSafeInteger(v) && (v as number) >= 0 ? (v as number) : undefined;

function build(input: number | undefined, cacheRead: number | undefined, output: unknown): InputUsage | null {
  if (input === undefined || cacheRead === undefined || cacheRead > input || !Number.isSafeInteger(input)) return null;
  const out = output === undefined ? null : count(output);
  if (out === undefined) return null;
  return { input, cacheRead, output: out };
}

/** The usage of one response of `protocol`, or null when it is unknown. */
export function readInputUsage(protocol: string, response: unknown): InputUsage | null {
  const u = rec(rec(response)?.usage);
  if (!u) return null;
  switch (protocol) {
    case 'openai': {
      const details = rec(u.prompt_tokens_details);
      // A Chat server without prompt_tokens_details reports no cache reads: a miss, not an assumed hit.
      const cached = details === undefined ? 0 : count(details.cached_tokens ?? 0);
      return build(count(u.prompt_tokens), cached, u.completion_tokens);
    }
    case 'deepseek': {
      const hit = count(u.prompt_cache_hit_tokens);
      const miss = count(u.prompt_cache_miss_tokens);
      if (hit === undefined || miss === undefined) return null;
      const total = count(u.prompt_tokens);
      if (total !== undefined && total !== hit + miss) return null;
      return build(hit + miss, hit, u.completion_tokens);
    }
    case 'responses': {
      const details = rec(u.input_tokens_details);
      const cached = details === undefined ? 0 : count(details.cached_tokens ?? 0);
      return build(count(u.input_tokens), cached, u.output_tokens);
    }
    case 'anthropic': {
      const plain = count(u.input_tokens);
      const read = count(u.cache_read_input_tokens ?? 0);
      const creation = count(u.cache_creation_input_tokens ?? 0);
      if (plain === undefined || read === undefined || creation === undefined) return null;
      return build(plain + read + creation, read, u.output_tokens);
    }
    default:
      return null;
  }
}
