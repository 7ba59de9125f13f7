// A failure said in words (pure): the headline of a failed turn and the reason a retry waits, chosen from the
// error's code and HTTP status. The code itself stays beside the words as secondary detail (`failureDetail`).
import type { ErrorData } from '../../core/contracts';
import type { failureEn } from './failure-strings';

type FailureKey = keyof typeof failureEn;

const statusOf = (error: Pick<ErrorData, 'data'>): number | undefined => {
  const s = (error.data as { status?: unknown } | undefined)?.status;
  return typeof s === 'number' ? s : undefined;
};

const HEADLINES: Record<string, FailureKey> = {
  E_PROVIDER_AUTH: 'fail.auth',
  E_RATE_LIMITED: 'fail.rateLimited',
  E_NETWORK: 'fail.network',
  E_CONTEXT_OVERFLOW: 'fail.overflow',
  E_CONTEXT_BUDGET: 'fail.budget',
  E_CREDENTIAL_MISSING: 'fail.noKey',
  E_API_KEY_MISSING: 'fail.noKey',
  E_MODEL_NOT_CONFIGURED: 'fail.noModel',
  E_REDIRECT_REFUSED: 'fail.redirect',
  E_PROVIDER_EMPTY: 'fail.answer',
  E_PROVIDER_RESPONSE: 'fail.answer',
  E_MODEL_EMPTY: 'fail.answer',
  E_STEP_LIMIT: 'fail.stepLimit',
  STOP_LENGTH: 'fail.cut',
  STOP_CONTENT_FILTER: 'fail.cut',
  STOP_INCOMPLETE: 'fail.cut',
};

/** The headline of a failed turn: what happened, in words. */
export function failureHeadline(error: Pick<ErrorData, 'code' | 'data'>): FailureKey {
  if (error.code === 'E_PROVIDER_HTTP') {
    const status = statusOf(error);
    if (status === 404) return 'fail.notFound';
    if (status === 408 || status === 504) return 'fail.timeout';
    if (status === 503 || status === 529) return 'fail.overloaded';
    if (status !== undefined && status >= 500) return 'fail.server';
    return 'fail.http';
  }
  return HEADLINES[error.code] ?? 'fail.generic';
}

/** The code (and the HTTP status when one answered), shown small after the headline: "E_PROVIDER_AUTH · 401". */
export function failureDetail(error: Pick<ErrorData, 'code' | 'data'>): string {
  const status = statusOf(error);
  return status === undefined ? error.code : `${error.code} · ${status}`;
}

/** Why a retry waits, as the end of "Retrying in 8 s — …". */
export function retryReason(retry: { code: string; status?: number }): FailureKey {
  const { code, status } = retry;
  if (code === 'E_RATE_LIMITED' || status === 429) return 'retry.rateLimited';
  if (code === 'E_NETWORK') return 'retry.network';
  if (status === 503 || status === 529) return 'retry.overloaded';
  if (status === 408 || status === 504) return 'retry.timeout';
  if (status === 409) return 'retry.conflict';
  if (status !== undefined && status >= 500) return 'retry.server';
  return 'retry.other';
}

/** Whole seconds left until `retryAt` (never below 0): 7.2 s left reads "8 s", so it never shows 0 early. */
export const secondsUntil = (retryAt: number, now: number): number => Math.max(0, Math.ceil((retryAt - now) / 1000));
