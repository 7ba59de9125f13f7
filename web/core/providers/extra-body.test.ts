import { describe, expect, it } from 'vitest';
import { HarnessError } from '../contracts/errors';
import { RESERVED_EXTRA_BODY_FIELDS, validateExtraBody } from './extra-body';

const refusal = (protocol: string, body: unknown) => {
  try {
    validateExtraBody(protocol, body);
  } catch (e) {
    if (HarnessError.isInstance(e)) return e.code;
  }
  return null;
};

describe('extra_body', () => {
  it.each(Object.entries(RESERVED_EXTRA_BODY_FIELDS).flatMap(([p, fields]) => fields.map((f) => [p, f])))(
    '%s refuses the control field %s',
    (protocol, field) => {
      expect(refusal(protocol, { [field]: 1 })).toBe('E_EXTRA_BODY_RESERVED');
    },
  );

  it.each([
    [{ api_key: 'x' }],
    [{ nested: { 'x-api-key': 'x' } }],
    [{ a: ['Bearer abcdef'] }],
    [{ b: 'sk-proj-abcdefghijk' }],
    [{ client_secret: 'y' }],
  ])('refuses credential-looking content %j', (body) => {
    expect(refusal('openai', body)).toBe('E_EXTRA_BODY_CREDENTIAL');
    expect(refusal('my-custom', body)).toBe('E_EXTRA_BODY_CREDENTIAL');
  });

  it('passes provider options through unchanged', () => {
    const body = { thinking: { type: 'enabled', budget_tokens: 1024 }, reasoning: { effort: 'high' }, temperature: 0 };
    expect(validateExtraBody('anthropic', body)).toBe(body);
    expect(refusal('openai', [])).toBe('E_CONFIG_INVALID');
  });
});
