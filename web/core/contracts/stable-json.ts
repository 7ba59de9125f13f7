// Content keys for JSON-shaped values: JSON with object keys sorted, so two equal values built in a different key
// order get the same key. `cachedStableJson` remembers the key per object (WeakMap): callers treat the objects as
// immutable once keyed, as the agent loop does with committed messages.

/** JSON text of `value` with every object's keys sorted; `undefined` members are dropped as JSON.stringify does. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

const cache = new WeakMap<object, string>();

/** stableJson of an object, computed once per object. */
export function cachedStableJson(value: object): string {
  let key = cache.get(value);
  if (key === undefined) {
    key = stableJson(value);
    cache.set(value, key);
  }
  return key;
}
