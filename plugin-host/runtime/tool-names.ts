// Public tool names: what the model sees, derived from plugin id + local tool name. Every provider accepts
// `^[a-zA-Z0-9_-]{1,64}$`; plugin ids hold dots and may be 64 bytes long, tool names 32.
//
// Mapping (stable: a pure function of id and tool name; never stored, never hand-edited):
//   1. `<id with "." → "_">--<tool>` when that fits in 64 characters, e.g. `example_word-count--count_words`.
//      Injective: ids contain no "_" (so "." → "_" is reversible) and tool names contain no "-" (so the last "-"
//      ends the id part).
//   2. Otherwise `<first N characters of step 1's id part>_H<10 upper-case hex of sha256(id + "\n" + tool)>--<tool>`,
//      with N chosen to make 64 characters. The upper-case `H` can never appear in a step-1 name (ids and tool
//      names are lower-case), so the two forms never collide with each other; two long names collide only if 40
//      bits of SHA-256 do, which the registry still checks for at enable time.
import { sha256 } from '@noble/hashes/sha2.js';

export const PUBLIC_TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const MAX = 64;

export function publicToolName(pluginId: string, tool: string): string {
  const idPart = pluginId.replaceAll('.', '_');
  const plain = `${idPart}--${tool}`;
  if (plain.length <= MAX) return plain;
  const digest = sha256(new TextEncoder().encode(`${pluginId}\n${tool}`));
  const hash = Array.from(digest.subarray(0, 5), (b) => b.toString(16).padStart(2, '0'))
    .join('')
    .toUpperCase();
  const keep = MAX - tool.length - 2 - (2 + hash.length);
  return `${idPart.slice(0, keep)}_H${hash}--${tool}`;
}
