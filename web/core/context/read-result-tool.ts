// `read_result {ref, offset}`: pages through a result that a bounded view cut (seed 002: "宿主应提供单独授权的读取工具，
// 并在工具内注入可信作用域"). The scope and the clock are injected by the host when the tool is built; the model
// supplies only the ref string and a byte offset, so it can never widen what it may read.
import { toErrorData } from '../contracts';
import type { ToolDefinition } from '../contracts';
import type { ContentScope, ContentStore } from './content-store';
import { decodeRef } from './ref-token';

export const READ_RESULT_TOOL = 'read_result';

export interface ReadResultToolOptions {
  store: ContentStore;
  /** The current session/task scope, from trusted host state. */
  scope: () => ContentScope;
  now?: () => number;
  /** Bytes per page (<= the store's maxPageBytes). Default 4096. */
  pageBytes?: number;
}

export function createReadResultTool(o: ReadResultToolOptions): ToolDefinition {
  const now = o.now ?? Date.now;
  const pageBytes = o.pageBytes ?? 4096;
  return {
    schema: {
      name: READ_RESULT_TOOL,
      description:
        'Read more of a tool result that was truncated. Pass the ref and offset exactly as the truncation note gave them; each call returns one page and the offset of the next.',
      parameters: {
        type: 'object',
        properties: {
          ref: { type: 'string', description: 'The ref from the truncation note.' },
          offset: {
            type: 'integer',
            minimum: 0,
            description: 'Byte offset to start from (the "offset" the note or the previous page gave).',
          },
        },
        required: ['ref', 'offset'],
        additionalProperties: false,
      },
    },
    // Reading back text the agent already produced in this task changes nothing; like `read`, it runs unasked.
    approval: 'free',
    external: false,
    async execute(args) {
      try {
        const ref = decodeRef(String(args.ref));
        const p = await o.store.read(ref, o.scope(), now(), Number(args.offset), pageBytes);
        const end = p.nextOffset ?? p.totalBytes;
        const tail =
          p.nextOffset === null
            ? `[end of result: bytes ${p.offset}–${end} of ${p.totalBytes}]`
            : `[bytes ${p.offset}–${end} of ${p.totalBytes}; next: read_result ${JSON.stringify({ ref: args.ref, offset: p.nextOffset })}]`;
        return { output: `${p.text}\n${tail}` };
      } catch (error) {
        const e = toErrorData(error, 'E_CONTENT_READ');
        return { error: true, code: e.code, output: `Error ${e.code}: ${e.message}` };
      }
    },
  };
}
