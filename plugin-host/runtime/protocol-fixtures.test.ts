// The frames of seed 004 as pinned by sdk-rust/fixtures/protocol (shared with the Rust SDK's tests): the host
// writes host → plugin frames byte for byte like the fixtures, accepts every valid plugin → host frame and refuses
// every invalid one.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../errors';
import { resumeFrame, startFrame, type HostResponse } from './frames';
import { FrameMediator } from './mediator';

const dir = join(import.meta.dirname, '../../sdk-rust/fixtures/protocol');
const text = (name: string) => readFileSync(join(dir, name), 'utf8').trim();
const json = (name: string) => JSON.parse(text(name)) as Record<string, unknown>;

/** A mediator that has already accepted `id - 1` calls, so the fixture's id is the next one. */
function primed(id: number): FrameMediator {
  const m = new FrameMediator();
  for (let i = 1; i < id; i++) m.accept({ type: 'host_call', request: { id: i, op: 'kv.get', args: { key: 'k' } } });
  return m;
}

describe('protocol fixtures shared with the Rust SDK', () => {
  it('writes the start frame exactly as start.tool.json', () => {
    const request = json('start.tool.json').request as Parameters<typeof startFrame>[0];
    expect(
      startFrame({
        id: request.id,
        event: 'tool',
        workspace_id: request.workspace_id,
        data: { name: request.data.name, arguments: request.data.arguments },
      }),
    ).toBe(text('start.tool.json'));
  });

  for (const name of readdirSync(dir).filter((n) => n.startsWith('resume.'))) {
    it(`writes ${name} byte for byte`, () => {
      const r = json(name).response as HostResponse;
      const rebuilt: HostResponse = r.ok
        ? { id: r.id, ok: true, result: r.result }
        : { id: r.id, ok: false, error: r.error };
      expect(resumeFrame(rebuilt)).toBe(text(name));
    });
  }

  for (const name of readdirSync(dir).filter((n) => /^(host_call|done|error)\./.test(n))) {
    it(`accepts ${name}`, () => {
      const frame = json(name);
      const id = ((frame.request as { id?: number } | undefined)?.id ?? 1) as number;
      expect(primed(id).accept(frame)).toEqual(frame);
    });
  }

  for (const name of readdirSync(join(dir, 'invalid')).filter((n) => /^(host_call|done|error|frame)\./.test(n))) {
    it(`refuses invalid/${name} with an E_RUN_* code`, () => {
      const frame = JSON.parse(readFileSync(join(dir, 'invalid', name), 'utf8')) as unknown;
      const m = name === 'host_call.id-129.json' ? primed(129) : new FrameMediator();
      let code = 'accepted';
      try {
        m.accept(frame);
      } catch (e) {
        code = HarnessError.isInstance(e) ? e.code : 'not a HarnessError';
      }
      expect(code).toMatch(/^E_RUN_/);
    });
  }
});
