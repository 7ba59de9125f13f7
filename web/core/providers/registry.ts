// Built-in adapters by protocol selector (seed 003: `protocol` is a string selector; the default is `openai`).
// Any other string needs an explicit provider binding (a bridge worker); it never falls back to a built-in.
import { HarnessError } from '../contracts';
import { anthropicAdapter } from './anthropic-messages';
import { deepseekAdapter, openaiChatAdapter } from './openai-chat';
import { responsesAdapter } from './openai-responses';
import type { ProviderAdapter } from '../contracts';

export const DEFAULT_PROTOCOL = 'openai';
export const BUILTIN_PROTOCOLS = ['openai', 'deepseek', 'anthropic', 'responses'] as const;
export type BuiltinProtocol = (typeof BUILTIN_PROTOCOLS)[number];

const adapters: Record<BuiltinProtocol, ProviderAdapter> = {
  openai: openaiChatAdapter,
  deepseek: deepseekAdapter,
  anthropic: anthropicAdapter,
  responses: responsesAdapter,
};

export const isBuiltinProtocol = (p: string): p is BuiltinProtocol =>
  (BUILTIN_PROTOCOLS as readonly string[]).includes(p);

export function builtinAdapter(protocol: string = DEFAULT_PROTOCOL): ProviderAdapter {
  if (isBuiltinProtocol(protocol)) return adapters[protocol];
  throw new HarnessError(
    'E_PROTOCOL_UNKNOWN',
    `Protocol "${protocol}" is not built in (built in: ${BUILTIN_PROTOCOLS.join(', ')}). Pick one of those, or bind a custom provider worker through the bridge.`,
    { protocol },
  );
}
