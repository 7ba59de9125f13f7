// A failure in words: the headline of a failed turn and the reason of a retry come from the code and the status,
// never show the bare code as the headline, and exist in English and Chinese.
import { describe, expect, it } from 'vitest';
import { chatTranslator } from './chat-i18n';
import { failureDetail, failureHeadline, retryReason, secondsUntil } from './failure-words';

const en = chatTranslator(() => 'en');
const zh = chatTranslator(() => 'zh');

describe('a failed turn in words', () => {
  it('names what happened, with the code and status as detail', () => {
    const auth = { code: 'E_PROVIDER_AUTH', data: { status: 401 } };
    expect(en(failureHeadline(auth))).toBe('The provider refused the API key');
    expect(zh(failureHeadline(auth))).toBe('服务商拒绝了 API 密钥');
    expect(failureDetail(auth)).toBe('E_PROVIDER_AUTH · 401');
    expect(en(failureHeadline({ code: 'E_NETWORK' }))).toBe('Couldn’t reach the provider');
    expect(failureDetail({ code: 'E_NETWORK' })).toBe('E_NETWORK');
    expect(en(failureHeadline({ code: 'E_PROVIDER_HTTP', data: { status: 503 } }))).toBe('The provider is overloaded');
    expect(en(failureHeadline({ code: 'E_PROVIDER_HTTP', data: { status: 500 } }))).toBe(
      'The provider had a server error',
    );
    expect(en(failureHeadline({ code: 'E_PROVIDER_HTTP', data: { status: 400 } }))).toBe(
      'The provider returned an error',
    );
    expect(en(failureHeadline({ code: 'E_SOMETHING_NEW' }))).toBe('The turn stopped');
  });

  it('says why a retry waits', () => {
    expect(en('retry.in', { seconds: 8, reason: en(retryReason({ code: 'E_RATE_LIMITED', status: 429 })) })).toBe(
      'Retrying in 8 s — rate limited by the provider',
    );
    expect(zh('retry.in', { seconds: 8, reason: zh(retryReason({ code: 'E_RATE_LIMITED', status: 429 })) })).toBe(
      '8 秒后重试——服务商限制了请求频率',
    );
    expect(en(retryReason({ code: 'E_PROVIDER_HTTP', status: 502 }))).toBe('the provider had a server error');
    expect(en(retryReason({ code: 'E_PROVIDER_HTTP', status: 529 }))).toBe('the provider is overloaded');
    expect(en(retryReason({ code: 'E_NETWORK' }))).toBe('the connection failed');
  });

  it('counts whole seconds up, never showing 0 before the retry is due', () => {
    expect(secondsUntil(10_000, 2_000)).toBe(8);
    expect(secondsUntil(10_000, 2_800)).toBe(8);
    expect(secondsUntil(10_000, 9_999)).toBe(1);
    expect(secondsUntil(10_000, 10_000)).toBe(0);
    expect(secondsUntil(10_000, 12_000)).toBe(0);
  });
});
