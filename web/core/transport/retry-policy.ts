// Which failures are retried and how long to wait. Retries replay the same prepared body (prepare never re-runs).

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is reported instead. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 4,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 120_000,
};

export const isRetryableStatus = (status: number): boolean =>
  status === 408 || status === 409 || status === 429 || status >= 500;

/** Retry-After (seconds or HTTP date) or OpenAI's `retry-after-ms`; null when absent or unreadable. */
export function retryAfterMs(headers: Headers, now: number): number | null {
  const ms = headers.get('retry-after-ms');
  if (ms !== null && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.ceil(Number(ms));
  const v = headers.get('retry-after');
  if (v === null) return null;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const date = Date.parse(v);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/** Exponential backoff with jitter (half fixed, half random), or the server's Retry-After when it gave one. */
export function backoffDelay(
  retry: number,
  policy: RetryPolicy,
  random: () => number,
  serverDelay: number | null,
): number {
  if (serverDelay !== null) return serverDelay;
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(exp / 2 + (random() * exp) / 2);
}
