// The whole in-browser stack in Chromium: the loop, the real transport and adapters (fetch + SSE decode), the
// built-in file tools over an OPFS workspace, and the IndexedDB session store. The model answers come from the
// scripted model server's own wire encoders, served through an injected fetch (a Node server cannot be started
// from a browser test), so the bytes the browser decodes are the ones the server would send.
import { describe, expect, it } from 'vitest';
import { anthropicAnswer } from '../../../e2e/model-server/encode-anthropic';
import { chatAnswer } from '../../../e2e/model-server/encode-chat';
import { responsesAnswer } from '../../../e2e/model-server/encode-responses';
import type { ScriptTurn, WireProtocol } from '../../../e2e/model-server/types';
import { DEFAULT_APPROVAL } from '../approval';
import { createFsaWorkspaceFs } from '../contracts/fs';
import { HookPipeline } from '../hooks';
import { createCheckpointSink, createIdbSessionStore } from '../sessions';
import { openHarnessDb } from '../storage';
import { coreFileTools } from '../tools/builtin';
import { ToolRegistry } from '../tools/registry';
import { runTurn } from './loop';
import { transportStream } from '../transport/stream-call';

const BASE: Record<WireProtocol, string> = {
  openai: 'https://models.example/v1',
  deepseek: 'https://models.example',
  anthropic: 'https://models.example',
  responses: 'https://models.example/v1',
};

function scriptedFetch(protocol: WireProtocol, script: ScriptTurn[], bodies: string[]): typeof fetch {
  let next = 0;
  return async (_url, init) => {
    const b = init?.body;
    const raw =
      typeof b === 'string'
        ? b
        : b instanceof Uint8Array || b instanceof ArrayBuffer
          ? new TextDecoder().decode(b)
          : await new Response(b).text();
    bodies.push(raw);
    const body = JSON.parse(raw) as Record<string, unknown>;
    const turn = script[next++]!;
    const stream = body.stream === true;
    const answer =
      protocol === 'anthropic'
        ? anthropicAnswer(turn, 'scripted', stream)
        : protocol === 'responses'
          ? responsesAnswer(turn, 'scripted', stream)
          : chatAnswer(
              turn,
              'scripted',
              stream,
              (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true,
              protocol === 'deepseek',
            );
    if (answer.kind === 'json')
      return new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { 'content-type': 'application/json' },
      });
    return new Response(answer.frames.join(''), { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}

describe.each<WireProtocol>(['openai', 'deepseek', 'anthropic', 'responses'])(
  'the loop in Chromium over %s',
  (protocol) => {
    it('reads and edits files in an OPFS workspace across steps and checkpoints into IndexedDB', async () => {
      const opfs = await navigator.storage.getDirectory();
      const dirName = `loop-${crypto.randomUUID()}`;
      const dir = await opfs.getDirectoryHandle(dirName, { create: true });
      try {
        const fs = createFsaWorkspaceFs(dir, { access: 'read-write' });
        await fs.writeText('notes.txt', 'colour: red\n');
        const script: ScriptTurn[] = [
          { text: 'Reading.', toolCalls: [{ name: 'read', arguments: { path: 'notes.txt' } }] },
          { toolCalls: [{ name: 'edit', arguments: { path: 'notes.txt', old_string: 'red', new_string: 'blue' } }] },
          { text: 'Changed red to blue.' },
        ];
        const bodies: string[] = [];
        const tools = new ToolRegistry();
        for (const t of coreFileTools()) tools.register(t);
        const db = await openHarnessDb(`loop-browser-${crypto.randomUUID()}`);
        const store = createIdbSessionStore(db, 'ws');
        const info = await store.create({ title: 'browser turn' });
        const asked: string[] = [];
        const result = await runTurn(
          {
            model: {
              protocol,
              base_url: BASE[protocol],
              model: 'scripted',
              max_tokens: 256,
              use_max_tokens: false,
              extra_body: {},
              budget: null,
            },
            history: [],
            content: 'Make it blue.',
          },
          {
            stream: transportStream({ apiKeyName: null, fetch: scriptedFetch(protocol, script, bodies) }),
            tools,
            hooks: new HookPipeline(),
            approval: DEFAULT_APPROVAL,
            askPerson: async (req) => (asked.push(`${req.name}: ${req.prepared?.summary ?? ''}`), 'allow'),
            fs,
            workspaceId: 'ws',
            session: createCheckpointSink(store, info, []),
          },
        ).result();
        expect(result.error).toBeUndefined();
        expect(result.stopReason).toBe('stop');
        expect(result.text).toBe('Changed red to blue.');
        expect(await fs.readText('notes.txt')).toBe('colour: blue\n');
        expect(asked).toHaveLength(1);
        expect(asked[0]).toMatch(/^edit: /);
        expect(bodies[1]).toContain('colour: red');
        const saved = await store.load(info.id);
        expect(saved.messages.at(-1)).toMatchObject({ role: 'assistant', content: 'Changed red to blue.' });
        expect(saved.messages.filter((m) => m.role === 'tool')).toHaveLength(2);
        db.close();
      } finally {
        await opfs.removeEntry(dirName, { recursive: true });
      }
    });
  },
);
