// Small helpers for tolerant reading of provider JSON: parse only what we need, tolerate the rest (STYLE.md).

export type Json = Record<string, unknown>;

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
export const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const obj = (v: unknown): Json => (isObject(v) ? v : {});

/** Parses tool arguments for APIs that want an object (Anthropic `input`); malformed text becomes `{}`. */
export function argumentsObject(text: string): Json {
  try {
    const v: unknown = JSON.parse(text || '{}');
    return isObject(v) ? v : {};
  } catch {
    return {};
  }
}

export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}
