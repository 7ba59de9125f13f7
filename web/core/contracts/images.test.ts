import { describe, expect, it } from 'vitest';
import type { ImagePart } from './messages';
import type { ToolDefinition } from './tools';
import { runScripted } from '../agent/__fixtures__/harness';
import { call } from '../agent/__fixtures__/scripted-stream';
import { checkImage, MAX_IMAGE_BYTES } from './images';

const b64 = (bytes: number[]) => Buffer.from(Uint8Array.from(bytes)).toString('base64');
const png = `data:image/png;base64,${b64([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])}`;
const img = (url: string): ImagePart => ({ type: 'image_url', image_url: { url } });

describe('tool result images', () => {
  it('recognises PNG, JPEG, GIF and WebP by signature and refuses the rest', () => {
    expect(checkImage(img(png))).toBeNull();
    expect(checkImage(img(`data:image/jpeg;base64,${b64([0xff, 0xd8, 0xff, 0xe0])}`))).toBeNull();
    expect(checkImage(img(`data:image/gif;base64,${b64([0x47, 0x49, 0x46, 0x38, 0x39, 0x61])}`))).toBeNull();
    expect(
      checkImage(img(`data:image/webp;base64,${b64([0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50])}`)),
    ).toBeNull();
    expect(checkImage(img(`data:image/png;base64,${b64([0x3c, 0x73, 0x76, 0x67])}`))).toMatch(/not a PNG/);
    expect(checkImage(img(`data:image/jpeg;base64,${png.split(',')[1]}`))).toMatch(
      /says image\/jpeg but the bytes are image\/png/,
    );
    expect(checkImage(img('data:image/svg+xml;base64,PHN2Zz4='))).toMatch(/only base64 data URLs/);
    expect(checkImage(img('https://example.com/a.png'))).toMatch(/only base64 data URLs/);
    const big = `data:image/png;base64,${png.split(',')[1]!.slice(0, 12)}${'A'.repeat(Math.ceil((MAX_IMAGE_BYTES + 10) / 3) * 4)}`;
    expect(checkImage(img(big))).toMatch(/more than the 8388608-byte limit/);
  });

  it('appends accepted images as a user message labelled with the call id, after the tool results, at most 8 per batch', async () => {
    const shot: ToolDefinition = {
      schema: {
        name: 'view_image',
        description: 'v',
        parameters: { type: 'object', properties: { n: { type: 'integer' } } },
      },
      approval: 'free',
      external: false,
      async execute(args) {
        return { output: 'attached', images: Array.from({ length: Number(args.n) }, () => img(png)) };
      },
    };
    const run = await runScripted(
      [{ tool_calls: [call('i1', 'view_image', { n: 5 }), call('i2', 'view_image', { n: 5 })] }, { content: 'seen' }],
      { tools: [shot] },
    );
    const history = run.model.calls[1]!.input.history;
    expect(history.slice(-4).map((m) => m.role)).toEqual(['tool', 'tool', 'user', 'user']);
    const [u1, u2] = history.slice(-2) as Array<{ content: Array<{ type: string; text?: string }>; _meta: unknown }>;
    expect(u1!._meta).toEqual({ kind: 'tool_images', tool_call_id: 'i1' });
    expect(u1!.content[0]!.text).toContain('i1');
    expect(u1!.content.filter((p) => p.type === 'image_url')).toHaveLength(5);
    expect(u2!.content.filter((p) => p.type === 'image_url')).toHaveLength(3);
    expect(String(history.at(-3)!.content)).toContain('at most 8 images per tool batch');
  });

  it('checks images after after_tool, so a hook cannot slip in a foreign image', async () => {
    const { HookPipeline } = await import('../hooks');
    const hooks = new HookPipeline();
    hooks.register({
      name: 'inject',
      source: 'profile',
      events: ['after_tool'],
      handle: (_e, d) => ({ ...(d as object), images: [img('data:image/png;base64,PHN2Zz4=')] }),
    });
    const tool: ToolDefinition = {
      schema: { name: 'read', description: 'r', parameters: { type: 'object' } },
      approval: 'free',
      external: false,
      execute: async () => ({ output: 'text' }),
    };
    const run = await runScripted([{ tool_calls: [call('c1', 'read', {})] }, { content: 'ok' }], {
      tools: [tool],
      hooks,
    });
    const history = run.model.calls[1]!.input.history;
    expect(history.at(-1)).toMatchObject({ role: 'tool' });
    expect(String(history.at(-1)!.content)).toMatch(/Image 1 was refused/);
  });
});
