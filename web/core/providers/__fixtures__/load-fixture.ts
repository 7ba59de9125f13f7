// Loads a transcribed provider stream (`*.chunks.txt`: one JSON per line, `[DONE]` for the Chat sentinel) and
// re-frames it as SSE bytes the way the provider sends them: Chat as bare `data:` lines, Anthropic and Responses
// with an `event:` line naming the event type. Tests then feed the bytes in chunks of a chosen size, so multi-byte
// characters and SSE lines are split across reads exactly as a network would split them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function fixtureSse(name: string): string {
  const text = readFileSync(fileURLToPath(new URL(`./${name}.chunks.txt`, import.meta.url)), 'utf8');
  const named = name.startsWith('anthropic') || name.startsWith('responses');
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((line) => {
      if (line === '[DONE]') return 'data: [DONE]\n\n';
      const type = (JSON.parse(line) as { type?: string }).type;
      return named && type ? `event: ${type}\ndata: ${line}\n\n` : `data: ${line}\n\n`;
    })
    .join('');
}

/** A fetch that answers with the given bytes split into `chunkBytes`-sized reads, and records what was sent. */
export function replayFetch(body: string | Uint8Array, options: { chunkBytes?: number; status?: number; contentType?: string } = {}) {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const size = options.chunkBytes ?? 64;
  const sent: { url: string; headers: Record<string, string>; body: Record<string, unknown> }[] = [];
  const fetchImpl: typeof fetch = async (url, init) => {
    const raw = init?.body instanceof Uint8Array ? new TextDecoder().decode(init.body) : String(init?.body);
    sent.push({ url: String(url), headers: { ...(init?.headers as Record<string, string>) }, body: JSON.parse(raw) as Record<string, unknown> });
    let offset = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (offset >= bytes.length) return c.close();
        c.enqueue(bytes.slice(offset, offset + size));
        offset += size;
      },
    });
    return new Response(stream, { status: options.status ?? 200, headers: { 'content-type': options.contentType ?? 'text/event-stream' } });
  };
  return { fetch: fetchImpl, sent };
}
