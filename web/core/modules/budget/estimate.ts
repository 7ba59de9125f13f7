// The conservative estimator (seed 000 §7): one token per UTF-8 byte of the wire view, images planned at
// image_tokens each (no earlier usage predicts a new image). The wire view drops top-level `_` metadata except
// `_responses_output` / `_anthropic_content`, which are replayed over the wire. The same view feeds the history
// fingerprint a usage anchor is bound to.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Message, ToolSchema } from '../../contracts';

const encoder = new TextEncoder();
const WIRE_META = new Set(['_responses_output', '_anthropic_content']);

export function wireView(message: Message): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(message)) if (!k.startsWith('_') || WIRE_META.has(k)) out[k] = v;
  return out;
}

/** UTF-8 bytes of the JSON of `value`, with image data URLs counted as planned images instead of bytes. */
export function bytesAndImages(value: unknown): { bytes: number; images: number } {
  let images = 0;
  const json = JSON.stringify(value, (key, v: unknown) => {
    if (key === 'url' && typeof v === 'string' && v.startsWith('data:image/')) {
      images++;
      return '';
    }
    return v;
  });
  return { bytes: json === undefined ? 0 : encoder.encode(json).length, images };
}

export function estimateMessages(messages: readonly Message[], imageTokens: number): number {
  let total = 0;
  for (const m of messages) {
    const { bytes, images } = bytesAndImages(wireView(m));
    total += bytes + images * imageTokens;
  }
  return total;
}

export const estimateTools = (tools: readonly ToolSchema[]): number =>
  tools.length === 0 ? 0 : bytesAndImages(tools).bytes;

const hex = (text: string) => bytesToHex(sha256(utf8ToBytes(text)));

// Messages keep their identity across the steps of a turn: hash each once. (A message is never mutated in place
// once in the history; a hook that changes one returns a new object.)
const messageHashes = new WeakMap<Message, string>();
function messageHash(m: Message): string {
  let h = messageHashes.get(m);
  if (h === undefined) {
    h = hex(JSON.stringify(wireView(m)));
    messageHashes.set(m, h);
  }
  return h;
}

/** Fingerprint chain over the wire views: entry i covers messages 0..i. */
export function historyChain(messages: readonly Message[]): string[] {
  const chain: string[] = [];
  let head = '';
  for (const m of messages) {
    head = hex(head + messageHash(m));
    chain.push(head);
  }
  return chain;
}

/** A stable hash of the endpoint, protocol and request options an anchor was measured with. */
export function endpointHash(endpoint: unknown): string {
  return hex(
    JSON.stringify(endpoint ?? null, (_k, v: unknown) =>
      typeof v === 'object' && v !== null && !Array.isArray(v)
        ? Object.fromEntries(
            Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
          )
        : v,
    ),
  );
}
