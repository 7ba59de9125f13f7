// `hplugin run` checks --args with the app's linear-time pattern engine, and its --timeout-ms budget starts before
// the package is read: reading, validation and the argument check spend it too.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packPackage } from '../../plugin-host';
import { recorderWasm } from '../../plugin-host/fixtures/wat/wat';
import { hplugin, useRunDirs } from './run-test-kit';

const dirs = useRunDirs('hplugin-run-args-');

/** A package whose one tool `check` takes `{text}` constrained by `pattern`, and answers done with "ran". */
async function patternPackage(pattern: string): Promise<string> {
  const manifest = {
    format_version: 1,
    id: 'test.pattern',
    name: 'Pattern',
    version: '1.0.0',
    runtime: 'harness-wasm-v1',
    entry: 'plugin.wasm',
    sha256: '0'.repeat(64),
    permissions: { workspace: 'none', storage: false },
    tools: [
      {
        name: 'check',
        description: 'Checks text.',
        parameters: {
          type: 'object',
          properties: { text: { type: 'string', pattern } },
          required: ['text'],
          additionalProperties: false,
        },
      },
    ],
  };
  const file = join(dirs.dir, 'pattern.hplugin.zip');
  await writeFile(
    file,
    (await packPackage({ manifest, wasm: await recorderWasm([{ type: 'done', output: 'ran' }]), license: 'MIT' }))
      .bytes,
  );
  return file;
}

describe('hplugin run checks --args with the linear-time engine', () => {
  it('answers ^(a+)+$ against 50,000 "a" and a "b" with a mismatch, and runs the tool for 50,000 "a"', async () => {
    const pkg = await patternPackage('^(a+)+$');
    // A backtracking RegExp never finishes this input (2^50000 ways to split the a's); the test's own timeout is the bound.
    const refused = await hplugin(
      pkg,
      '--tool',
      'check',
      '--args',
      JSON.stringify({ text: `${'a'.repeat(50_000)}b` }),
      '--workspace',
      dirs.ws,
    );
    expect(refused).toMatchObject({ code: 2, stdout: '' });
    expect(refused.stderr).toMatch(
      /^error E_USAGE: --args does not match check's parameters: at args\.text: String does not match pattern\. Give --args the fields/,
    );
    const accepted = await hplugin(
      pkg,
      '--tool',
      'check',
      '--args',
      JSON.stringify({ text: 'a'.repeat(50_000) }),
      '--workspace',
      dirs.ws,
    );
    expect(accepted).toEqual({ code: 0, stdout: 'ran', stderr: '' });
  });

  it('refuses to pack a package whose schema pattern the linear engine cannot run (a backreference)', async () => {
    // The validator refuses it: such a package cannot be packed, verified, run or installed in the app.
    await expect(patternPackage('^(a)\\1$')).rejects.toMatchObject({
      code: 'E_MANIFEST_SCHEMA',
      message: expect.stringMatching(
        /pattern cannot be checked in linear time: it uses backreferences \(\\1 … \\9\)\. Rewrite it/,
      ),
    });
  });
});

describe('hplugin run: --timeout-ms covers everything from the first byte read', () => {
  it('stops before the plugin starts when reading and checking the package and --args spent the budget', async () => {
    const pkg = await patternPackage('^(a|b)*c?$');
    // A 4 MB argument takes far longer than 1 ms to parse and check; that time is part of the budget.
    const r = await hplugin(
      pkg,
      '--tool',
      'check',
      '--args',
      JSON.stringify({ text: 'ab'.repeat(2_000_000) }),
      '--workspace',
      dirs.ws,
      '--timeout-ms',
      '1',
    );
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toMatch(
      /^error E_RUN_TIMEOUT: The run's 1 ms budget was spent before the plugin started \(while [a-z -]+\)\. Nothing was run; raise --timeout-ms\.\n$/,
    );
  });
});
