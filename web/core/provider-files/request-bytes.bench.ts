// npm run bench: bytes sent for a 10-step session with 3 images (100 KB each, seen at steps 1, 4 and 7), images
// as file_ids (provider Files) vs base64 in every request (target ≤ 0.1), and with the upload bytes added (printed). Both through the real
// Responses adapter; the Files side also through withProviderFiles with a registry and an answering upload endpoint.
import { it } from 'vitest';
import { report } from '../../../scripts/bench-kit';
import { responsesAdapter, type Message, type PrepareInput } from '../providers';
import { withProviderFiles, newFilesContext } from './files-adapter';
import { filesPolicy } from './provider-json';
import { FileRegistry, memoryRegistryStore } from './registry';

const BASE = 'https://api.example.test/v1';
const image = (seed: number) => {
  const bytes = new Uint8Array(100_000);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  for (let i = 8; i < bytes.length; i++) bytes[i] = (i * 31 + seed * 17) & 0xff;
  return `data:image/png;base64,${Buffer.from(bytes).toString('base64')}`;
};

function session(steps: number): Message[][] {
  const history: Message[] = [
    { role: 'system', content: 'You are a helpful agent.' },
    { role: 'user', content: 'Compare the screenshots as they come.' },
  ];
  const requests: Message[][] = [];
  for (let step = 1; step <= steps; step++) {
    if (step === 1 || step === 4 || step === 7)
      history.push({
        role: 'user',
        content: [
          { type: 'text', text: `Screenshot ${step}` },
          { type: 'image_url', image_url: { url: image(step) } },
        ],
      });
    requests.push([...history]);
    history.push({ role: 'assistant', content: `Step ${step}: noted what changed.`.repeat(4) });
  }
  return requests;
}

const input = (history: Message[]): PrepareInput => ({
  version: 1,
  protocol: 'responses',
  base_url: BASE,
  model: 'm',
  history,
  max_tokens: 1024,
  compact: false,
  tools: [],
  plugin_tools: [],
  use_max_tokens: false,
  extra_body: {},
  stream: true,
});

it('provider Files: request bytes of a 10-step session with 3 images, file_id vs base64', async () => {
  const requests = session(10);
  let base64 = 0;
  for (const h of requests) base64 += JSON.stringify((await responsesAdapter.prepare(input(h))).body).length;

  let uploaded = 0;
  let n = 0;
  const fetch = (async (_url: string, init: RequestInit) => {
    uploaded += (init.body as Uint8Array).byteLength;
    return new Response(JSON.stringify({ id: `file-${++n}`, bytes: 100_000, created_at: 1, expires_at: null }), {
      status: 200,
    });
  }) as unknown as typeof globalThis.fetch;
  const policy = filesPolicy({
    provider: { images: 'files', account_scope: 'bench', expires_after_seconds: null },
    providerOperations: true,
    protocol: 'responses',
    baseUrl: BASE,
    apiKeyName: null,
  });
  const adapter = withProviderFiles(
    responsesAdapter,
    newFilesContext(policy, new FileRegistry(memoryRegistryStore()), { apiKeyName: null, fetch }),
  );
  let files = 0;
  for (const h of requests) files += JSON.stringify((await adapter.prepare(input(h))).body).length;
  report(
    'provider Files: model request bytes (10 steps, 3 images)',
    `base64 ${base64} B, file_id ${files} B`,
    files / base64,
    0.1,
  );
  // The target is on the requests to the model (the line above). The uploads are the one-time price of the
  // first use, printed for the whole picture without a target: how much they weigh depends on how late the images
  // arrive (here at steps 1, 4 and 7, so each would go as base64 in 10, 7 and 4 requests; all at step 1 ≈ 0.08).
  report(
    'provider Files: model request + upload bytes (10 steps, 3 images)',
    `base64 ${base64} B, file_id ${files} B + ${n} uploads ${uploaded} B`,
    (files + uploaded) / base64,
  );
});
