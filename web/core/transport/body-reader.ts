// Reads a response body chunk by chunk, counting bytes as they arrive so an oversized body is cut off early
// instead of buffered whole (seed 000 §6: success and error bodies are at most 48 MiB).
import { HarnessError } from '../contracts';

export function tooLarge(limit: number, what: string): HarnessError {
  return new HarnessError(
    'E_BODY_TOO_LARGE',
    `The ${what} is larger than ${limit} bytes, the model HTTP limit. Shorten the conversation or ask for less output.`,
    {
      limit,
    },
  );
}

export async function* boundedChunks(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
): AsyncGenerator<Uint8Array> {
  if (!body) return;
  const reader = body.getReader();
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      total += value.byteLength;
      if (total > limit) throw tooLarge(limit, 'response body');
      yield value;
    }
  } finally {
    reader.cancel().catch(() => undefined);
  }
}

export async function readBoundedText(body: ReadableStream<Uint8Array> | null, limit: number): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of boundedChunks(body, limit)) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}
