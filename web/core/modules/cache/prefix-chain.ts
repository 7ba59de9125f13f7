// A hash chain over the request's cacheable prefix: one item for the tools + system/instructions header, then one
// per message / input item. Comparing chain heads tells whether the previous request is a prefix of this one
// (append) without storing any prompt text.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

export const hashHex = (text: string): string => bytesToHex(sha256(utf8ToBytes(text)));

/** JSON with object keys sorted, so two equal bodies hash equal whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

/** Chain heads: [header, header+item1, ...]. */
export function prefixChain(body: Record<string, unknown>): string[] {
  const header = { tools: body.tools ?? null, system: body.system ?? null, instructions: body.instructions ?? null };
  const list = Array.isArray(body.messages) ? body.messages : Array.isArray(body.input) ? body.input : [];
  let head = hashHex(canonicalJson(header));
  const chain = [head];
  for (const item of list) {
    head = hashHex(head + hashHex(canonicalJson(item)));
    chain.push(head);
  }
  return chain;
}
