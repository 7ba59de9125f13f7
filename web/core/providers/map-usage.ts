// Provider usage objects → the host's Usage. The raw object is kept beside it for cache/budget policies.
import { num, obj } from './json-text';
import type { Usage } from '../contracts';

const defined = (u: Usage): Usage => Object.fromEntries(Object.entries(u).filter(([, v]) => v !== undefined)) as Usage;

/** Chat Completions (OpenAI, DeepSeek's `prompt_cache_hit_tokens`). */
export function mapChatUsage(raw: unknown): Usage | undefined {
  if (raw === null || typeof raw !== 'object') return undefined;
  const u = obj(raw);
  return defined({
    input_tokens: num(u.prompt_tokens),
    output_tokens: num(u.completion_tokens),
    cache_read_tokens: num(obj(u.prompt_tokens_details).cached_tokens) ?? num(u.prompt_cache_hit_tokens),
    reasoning_tokens: num(obj(u.completion_tokens_details).reasoning_tokens),
  });
}

/** Anthropic: input_tokens excludes cache reads and writes (seed 000 §8 adds them up). */
export function mapAnthropicUsage(raw: unknown): Usage | undefined {
  if (raw === null || typeof raw !== 'object') return undefined;
  const u = obj(raw);
  return defined({
    input_tokens: num(u.input_tokens),
    output_tokens: num(u.output_tokens),
    cache_read_tokens: num(u.cache_read_input_tokens),
    cache_write_tokens: num(u.cache_creation_input_tokens),
  });
}

/** Responses: cached tokens are part of input_tokens. */
export function mapResponsesUsage(raw: unknown): Usage | undefined {
  if (raw === null || typeof raw !== 'object') return undefined;
  const u = obj(raw);
  return defined({
    input_tokens: num(u.input_tokens),
    output_tokens: num(u.output_tokens),
    cache_read_tokens: num(obj(u.input_tokens_details).cached_tokens),
    reasoning_tokens: num(obj(u.output_tokens_details).reasoning_tokens),
  });
}
