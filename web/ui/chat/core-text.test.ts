import { describe, expect, it } from 'vitest';
import { type ErrorData } from '../../core/contracts';
import { PROVIDER_PRESETS } from '../../core/page';
import { errorText, routeNoteText } from './core-text';

const said = 'Incorrect API key provided: sk-e2e****';
const cases: ErrorData[] = [
  {
    code: 'E_PROVIDER_AUTH',
    message: 'The provider refused the key (401: …).',
    data: { status: 401, origin: 'https://api.openai.com', provider_message: said },
  },
  {
    code: 'E_RATE_LIMITED',
    message: 'The provider is rate limiting this key (429: …).',
    data: { status: 429, provider_message: said },
  },
  { code: 'E_CONTEXT_OVERFLOW', message: 'The conversation is longer…', data: { status: 400, provider_message: said } },
  { code: 'E_PROVIDER_HTTP', message: 'The provider answered 404 (…).', data: { status: 404, provider_message: said } },
  { code: 'E_PROVIDER_HTTP', message: 'The provider answered 500: …', data: { status: 500, provider_message: said } },
];

describe('errorText', () => {
  it('says provider errors in Chinese, keeping the provider’s own words', () => {
    for (const error of cases) {
      const text = errorText(error, 'zh');
      expect(text, error.code).toContain(said);
      expect(text, error.code).toMatch(/[\u4e00-\u9fff]/);
      expect(text, error.code).not.toContain('The provider');
    }
    expect(errorText(cases[3]!, 'zh')).toContain('base_url');
  });

  it('tells the two network failures apart by route', () => {
    const direct = errorText(
      { code: 'E_NETWORK', message: 'x', data: { origin: 'http://127.0.0.1:11434', route: 'direct' } },
      'zh',
    );
    const bridge = errorText(
      { code: 'E_NETWORK', message: 'x', data: { origin: 'http://127.0.0.1:11434', route: 'bridge' } },
      'zh',
    );
    expect(direct).toContain('CORS');
    expect(bridge).toContain('i-bridge');
    expect(direct).not.toBe(bridge);
  });

  it('says a damaged session in Chinese with what is intact and the way to recover it', () => {
    const text = errorText(
      {
        code: 'E_SESSION_CORRUPT',
        message: 'The session "x" cannot be loaded: …',
        data: { id: 'x', intactEntries: 3, checkpointSeq: 5 },
      },
      'zh',
    );
    expect(text).toContain('条目 0–2 完好');
    expect(text).toContain('0–5');
    expect(text).toContain('恢复为新会话');
    expect(errorText({ code: 'E_SESSION_CORRUPT', message: 'x', data: { intactEntries: 0 } }, 'zh')).not.toContain(
      '恢复',
    );
  });

  it('keeps the core’s English text in English and for codes it does not know', () => {
    expect(errorText(cases[0]!, 'en')).toBe(cases[0]!.message);
    expect(errorText({ code: 'E_SOMETHING_NEW', message: 'Do this.' }, 'zh')).toBe('Do this.');
  });
});

describe('routeNoteText', () => {
  it('has a Chinese note for every preset, and the preset’s own note in English', () => {
    for (const preset of PROVIDER_PRESETS) {
      expect(routeNoteText(preset, 'en')).toBe(preset.routeNote);
      expect(routeNoteText(preset, 'zh'), preset.id).not.toBe(preset.routeNote);
      expect(routeNoteText(preset, 'zh'), preset.id).toMatch(/[\u4e00-\u9fff]/);
    }
  });
});
