// A scripted model server on 127.0.0.1 (random port) that speaks the four wire APIs the harness uses, streaming
// and not, records every request, and answers CORS preflights so the browser app can call it directly.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicAnswer, anthropicError } from './encode-anthropic';
import { chatAnswer, chatError } from './encode-chat';
import { createFilesStore, isFilesPath } from './files';
import { responsesAnswer } from './encode-responses';
import type {
  Answer,
  ListedModelEntry,
  ModelServer,
  ModelServerOptions,
  RecordedRequest,
  ScriptTurn,
  WireProtocol,
} from './types';

const PATHS: Record<string, WireProtocol> = {
  '/v1/chat/completions': 'openai',
  '/chat/completions': 'deepseek',
  '/v1/messages': 'anthropic',
  '/v1/responses': 'responses',
  '/responses': 'responses',
};

function cors(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('access-control-allow-origin', req.headers.origin ?? '*');
  res.setHeader('vary', 'origin');
  res.setHeader('access-control-allow-methods', 'GET, POST, DELETE, OPTIONS');
  res.setHeader('access-control-allow-headers', req.headers['access-control-request-headers'] ?? '*');
  res.setHeader('access-control-expose-headers', 'retry-after, retry-after-ms');
  // Chrome's Private/Local Network Access preflight for loopback targets.
  res.setHeader('access-control-allow-private-network', 'true');
  res.setHeader('access-control-max-age', '600');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function answerFor(turn: ScriptTurn, protocol: WireProtocol, body: Record<string, unknown>): Answer {
  const model = typeof body.model === 'string' ? body.model : 'scripted-model';
  const stream = body.stream === true;
  if (protocol === 'anthropic') return anthropicAnswer(turn, model, stream);
  if (protocol === 'responses') return responsesAnswer(turn, model, stream);
  const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
  return chatAnswer(turn, model, stream, includeUsage, protocol === 'deepseek');
}

function errorBody(protocol: WireProtocol | null, status: number, message: string): unknown {
  return protocol === 'anthropic' ? anthropicError(status, message) : chatError(status, message);
}

/** `GET /v1/models` (and `/models`): Anthropic's list shape when the request says anthropic-version, else OpenAI's. */
function modelList(models: (string | ListedModelEntry)[], anthropic: boolean): unknown {
  const entries = models.map((m) => (typeof m === 'string' ? { id: m } : m));
  const ids = entries.map((m) => m.id);
  if (!anthropic)
    return {
      object: 'list',
      data: entries.map((m) => ({ object: 'model', created: 0, owned_by: 'scripted', ...m })),
    };
  const data = ids.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' }));
  return { data, has_more: false, first_id: ids[0] ?? null, last_id: ids.at(-1) ?? null };
}

export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const requests: RecordedRequest[] = [];
  const failures: Error[] = [];
  const open = new Set<ServerResponse>();
  let next = 0;
  const files = options.files ? createFilesStore(options.files) : null;

  const server = createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => {
      failures.push(e instanceof Error ? e : new Error(String(e)));
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    cors(req, res);
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '/').split('?')[0]!;
    const protocol = PATHS[path] ?? null;
    let body: Record<string, unknown> | undefined;
    try {
      body = rawBody ? (JSON.parse(rawBody) as Record<string, unknown>) : undefined;
    } catch {
      body = undefined;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers[k.toLowerCase()] = v;
    const recorded: RecordedRequest = { method: req.method ?? 'GET', path, protocol, headers, rawBody, body };
    requests.push(recorded);
    const json = (status: number, value: unknown, extra: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...extra });
      res.end(JSON.stringify(value));
    };
    if (files && isFilesPath(path)) {
      const r = files.handle(
        req.method ?? 'GET',
        path,
        headers,
        Buffer.concat(chunks),
        new URL(req.url ?? '/', 'http://x').searchParams,
      );
      return json(r.status, r.body);
    }
    if (req.method === 'GET' && options.models && (path === '/v1/models' || path === '/models'))
      return json(200, modelList(options.models, 'anthropic-version' in headers));
    if (req.method !== 'POST')
      return json(404, errorBody(protocol, 404, `No model endpoint at ${req.method} ${path}.`));
    if (!body) return json(400, errorBody(protocol, 400, 'The request body is not JSON.'));

    const missing = files && protocol ? files.missingIn(body) : null;
    if (missing) return json(404, errorBody(protocol, 404, `File not found: ${missing} (expired or deleted).`));
    const index = next++;
    const turn = typeof options.script === 'function' ? options.script(recorded, index) : options.script[index];
    if (!turn)
      return json(
        500,
        errorBody(
          protocol,
          500,
          `The script has no turn ${index + 1} (it has ${Array.isArray(options.script) ? options.script.length : '?'}).`,
        ),
      );
    if (turn.expect) {
      try {
        turn.expect(recorded);
      } catch (e) {
        const err = e instanceof Error ? e : new Error(String(e));
        failures.push(err);
        return json(500, errorBody(protocol, 500, `Script expectation failed: ${err.message}`));
      }
    }
    if (turn.delayMs) await sleep(turn.delayMs);
    if (turn.redirect) {
      res.writeHead(307, { location: turn.redirect });
      res.end();
      return;
    }
    if (turn.raw) {
      res.writeHead(turn.raw.status ?? 200, { 'content-type': turn.raw.contentType, ...turn.raw.headers });
      res.end(turn.raw.body);
      return;
    }
    if (turn.error) {
      const { status, message, headers: extra } = turn.error;
      return json(
        status,
        turn.error.body ?? errorBody(protocol, status, message ?? `Scripted error ${status}.`),
        extra,
      );
    }
    // Other paths (e.g. a stand-in bridge at /v1/proxy) may only be answered with raw/error/redirect turns.
    if (!protocol) return json(404, errorBody(protocol, 404, `No model endpoint at ${req.method} ${path}.`));
    const answer = answerFor(turn, protocol, body);
    if (answer.kind === 'json') return json(answer.status, answer.body);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    open.add(res);
    res.on('close', () => open.delete(res));
    for (let i = 0; i < answer.frames.length; i++) {
      if (res.destroyed) return;
      res.write(answer.frames[i]);
      if (turn.hang && i + 1 >= Math.ceil(answer.frames.length / 2)) return; // half the stream, then silence
      if (turn.chunkDelayMs) await sleep(turn.chunkDelayMs);
    }
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    baseUrl: (p) => (p === 'openai' || p === 'responses' ? `${url}/v1` : url),
    requests,
    failures,
    files,
    close: () =>
      new Promise<void>((resolve) => {
        for (const r of open) r.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
