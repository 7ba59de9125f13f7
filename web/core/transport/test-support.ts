// Shared helpers for transport and provider tests (not part of the public face).
import type { Message, PrepareInput, StreamEvent } from '../providers';
import type { EventStream } from '../contracts';
import type { ModelOutcome } from './stream-model';

export function prepareInput(
  protocol: string,
  base_url: string,
  history: Message[],
  extra: Partial<PrepareInput> = {},
): PrepareInput {
  return {
    version: 1,
    protocol,
    base_url,
    model: 'test-model',
    history,
    max_tokens: 256,
    compact: false,
    tools: [],
    plugin_tools: [],
    use_max_tokens: false,
    extra_body: {},
    stream: true,
    ...extra,
  };
}

export async function collect(
  stream: EventStream<StreamEvent, ModelOutcome>,
): Promise<{ events: StreamEvent[]; outcome: ModelOutcome }> {
  const events: StreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return { events, outcome: await stream.result() };
}

export const noSleep = async () => undefined;
