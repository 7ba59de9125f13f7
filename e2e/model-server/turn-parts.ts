import type { ScriptToolCall, ScriptTurn } from './types';

export const argsText = (c: ScriptToolCall): string =>
  typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments);

/** Splits text into small pieces so streams carry several deltas, as real providers do. */
export function pieces(text: string, size = 8): string[] {
  const out: string[] = [];
  const chars = [...text];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out;
}

/** Tool arguments split in two anywhere (even inside a key), as providers do. */
export function splitArgs(text: string): string[] {
  if (text.length < 2) return [text];
  const mid = Math.floor(text.length / 2);
  return [text.slice(0, mid), text.slice(mid)];
}

export const usageOf = (t: ScriptTurn) => t.usage ?? { input: 10, output: 5 };
