// npm run bench: (1) SSE decode throughput of the whole client path (fetch body → bounded reader → SSE parser →
// adapter decoder → events → reassembled JSON → parse) against the bare eventsource-parser on the same recorded
// stream; (2) client-added latency to the first text event against a raw fetch of the same stream from the
// scripted model server (target ≤ 5 ms).
import { createParser } from 'eventsource-parser';
import { afterAll, beforeAll, it } from 'vitest';
import { compare, fmt, report } from '../../../scripts/bench-kit';
import { startModelServer, type ModelServer } from '../../../e2e/model-server';
import { replayFetch } from '../providers/__fixtures__/load-fixture';
import { streamModel } from './stream-model';
import { prepareInput } from './test-support';

/** A long recorded Chat stream: 4,000 text chunks like the fixtures', then usage and [DONE]. */
function recordedStream(): Uint8Array {
  const frames: string[] = [];
  const base = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 1735000000, model: 'gpt-4.1' };
  frames.push(
    JSON.stringify({
      ...base,
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
    }),
  );
  for (let i = 0; i < 4000; i++)
    frames.push(
      JSON.stringify({ ...base, choices: [{ index: 0, delta: { content: `token ${i} 世界 ` }, finish_reason: null }] }),
    );
  frames.push(JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }));
  frames.push(JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: 4000 } }));
  frames.push('[DONE]');
  return new TextEncoder().encode(frames.map((f) => `data: ${f}\n\n`).join(''));
}

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer({
    script: () => ({ text: 'The first words of a streamed answer, then more of it.' }),
  });
});
afterAll(() => server.close());

it('SSE decode throughput vs the bare parser', async () => {
  const bytes = recordedStream();
  const chunk = 1024;
  const bare = () => {
    const decoder = new TextDecoder();
    let n = 0;
    const parser = createParser({ onEvent: () => void n++ });
    for (let i = 0; i < bytes.length; i += chunk)
      parser.feed(decoder.decode(bytes.subarray(i, i + chunk), { stream: true }));
    return n;
  };
  const full = async () => {
    const { fetch } = replayFetch(bytes, { chunkBytes: chunk });
    const s = streamModel({
      input: prepareInput('openai', 'https://api.openai.com/v1', [{ role: 'user', content: 'x' }]),
      fetch,
    });
    let n = 0;
    for await (const _e of s) n++;
    await s.result();
    return n;
  };
  const r = await compare(
    'transport: SSE decode (4,000 chat chunks, 1 KiB reads)',
    { label: 'bare eventsource-parser', run: bare },
    { label: 'streamModel decode+reassemble+parse', run: full },
    { runs: 11 },
  );
  const mb = bytes.length / (1024 * 1024);
  report(
    'transport: SSE decode throughput',
    `${(mb / (r.candidateMs / 1000)).toFixed(1)} MiB/s vs bare ${(mb / (r.baselineMs / 1000)).toFixed(1)} MiB/s`,
    r.ratio,
  );
});

it('client-added latency to the first text event', async () => {
  const url = `${server.baseUrl('openai')}/chat/completions`;
  const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }], stream: true });
  const raw = async () => {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const reader = res.body!.getReader();
    const dec = new TextDecoder();
    let seen = '';
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += dec.decode(value, { stream: true });
      if (seen.includes('"content":"The')) break;
    }
    await reader.cancel();
  };
  const client = async () => {
    const ac = new AbortController();
    const s = streamModel({
      input: prepareInput('openai', server.baseUrl('openai'), [{ role: 'user', content: 'x' }]),
      signal: ac.signal,
    });
    for await (const e of s) {
      if (e.type === 'text-delta') {
        ac.abort();
        break;
      }
    }
    await s.result();
  };
  const r = await compare(
    'transport: time to first text event',
    { label: 'raw fetch', run: raw },
    { label: 'streamModel', run: client },
    { runs: 31, warmup: 5 },
  );
  const added = r.candidateMs - r.baselineMs;
  const verdict = added <= 5 ? 'ok' : 'MISSED';
  report(
    'transport: client-added latency to first text',
    `${fmt(Math.max(0, added))} added (target ≤ 5 ms) ${verdict}`,
    r.ratio,
  );
});
