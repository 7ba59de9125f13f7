import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { PACKAGE_FIXES } from './codes';
import { SCHEMA_KEYWORDS } from './schema-subset';

const context = readFileSync(new URL('./CONTEXT.md', import.meta.url), 'utf8');

describe('CONTEXT.md', () => {
  it('lists every refusal code with its exact fix sentence', () => {
    for (const [code, fix] of Object.entries(PACKAGE_FIXES)) {
      expect(context, code).toContain(`| \`${code}\` |`);
      expect(context, code).toContain(fix.replace(/\|/g, '\\|'));
    }
  });

  it('lists every supported schema keyword', () => {
    for (const keyword of SCHEMA_KEYWORDS) expect(context, keyword).toContain(`\`${keyword}\``);
  });
});
