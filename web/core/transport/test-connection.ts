// "Test connection": the smoke request of seed 000 §10 — no tools, an output cap of 32 tokens, a returned tool
// call counts as a failure — reporting latency, usage and the exact error.
import { HarnessError, type ErrorData } from '../errors';
import type { ProviderAdapter, Route, Usage } from '../providers';
import { isModelFailure, streamModel, type TransportPorts } from './stream-model';

export const SMOKE_OUTPUT_CAP = 32;

export interface ConnectionTarget {
  protocol: string;
  base_url: string;
  model: string;
  api_key_env?: string | null;
  use_max_tokens?: boolean;
  extra_body?: Record<string, unknown>;
  route?: Route;
  /** A custom provider's adapter (the bridge's provider worker); defaults to the built-in one of `protocol`. */
  adapter?: ProviderAdapter;
}

export interface ConnectionReport {
  ok: boolean;
  /** Milliseconds from sending to the complete answer (or the failure). */
  latencyMs: number;
  /** Milliseconds to the first streamed event, when one arrived. */
  firstEventMs?: number;
  text?: string;
  usage?: Usage;
  error?: ErrorData;
}

export async function testConnection(target: ConnectionTarget, ports: TransportPorts & { signal?: AbortSignal } = {}): Promise<ConnectionReport> {
  const now = ports.now ?? (() => performance.now());
  const started = now();
  let firstEventMs: number | undefined;
  const stream = streamModel({
    ...ports,
    input: {
      version: 1,
      protocol: target.protocol,
      base_url: target.base_url,
      model: target.model,
      history: [{ role: 'user', content: 'Connection test. Reply with the single word: ok' }],
      max_tokens: SMOKE_OUTPUT_CAP,
      compact: false,
      tools: [],
      plugin_tools: [],
      use_max_tokens: target.use_max_tokens ?? false,
      extra_body: target.extra_body ?? {},
      stream: true,
    },
    apiKeyName: target.api_key_env ?? null,
    route: target.route ?? 'direct',
    ...(target.adapter ? { adapter: target.adapter } : {}),
    retry: { maxRetries: 0 },
    ...(ports.signal ? { signal: ports.signal } : {}),
  });
  for await (const ev of stream) {
    if (firstEventMs === undefined && ev.type !== 'start' && ev.type !== 'retry') firstEventMs = now() - started;
  }
  const outcome = await stream.result();
  const latencyMs = now() - started;
  const timing = { latencyMs, ...(firstEventMs !== undefined ? { firstEventMs } : {}) };
  if (isModelFailure(outcome)) return { ok: false, ...timing, error: outcome.error };
  const choice = outcome.parsed.response.choices[0]!;
  const usage = outcome.parsed.response.usage;
  const base = { ...timing, text: choice.message.content ?? '', ...(usage ? { usage } : {}) };
  if (choice.message.tool_calls?.length) {
    const error = new HarnessError('E_SMOKE_TOOL_CALL', 'The model answered the connection test with a tool call although no tools were offered. Check the model and extra_body settings.').toJSON();
    return { ok: false, ...base, error };
  }
  return { ok: true, ...base };
}
