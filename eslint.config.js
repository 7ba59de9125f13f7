// Lint runs inside `npm test`. typescript-eslint needs TypeScript's JS API: keep typescript at 5.9.x.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'sdk-rust/**', 'coverage/**', 'e2e/.artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.worker } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name='eval']", message: 'The app runs under a CSP without unsafe-eval.' },
        { selector: "NewExpression[callee.name='Function']", message: 'The app runs under a CSP without unsafe-eval.' },
      ],
    },
  },
  // One-way layers (ARCHITECTURE.md): plugin-host never imports web/, core never imports ui, bridge stands alone,
  // net/ sits below both the bridge and web/core (each may import it; it imports neither).
  {
    files: ['plugin-host/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/web/**', '**/packager/**', '**/bridge/**'],
              message: 'plugin-host imports nothing from web/, packager/ or bridge/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['web/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/ui/**', '**/packager/**', '**/bridge/**'],
              message: 'web/core imports only plugin-host (through its index.ts) and, from Node-only code, net/.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packager/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/web/**', '**/bridge/**'], message: 'packager imports only plugin-host.' }] },
      ],
    },
  },
  {
    files: ['bridge/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/web', '**/web/**', '**/plugin-host', '**/plugin-host/**', '**/packager', '**/packager/**'],
              message: 'bridge stands alone (it may import net/).',
            },
          ],
        },
      ],
    },
  },
  // net/: Node-only network code (web_fetch, public-address checks, HTML to text) that the bridge and headless i
  // both import; one implementation below both, so neither imports the other (issue 30, net/CONTEXT.md).
  {
    files: ['net/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/web',
                '**/web/**',
                '**/bridge',
                '**/bridge/**',
                '**/plugin-host',
                '**/plugin-host/**',
                '**/packager',
                '**/packager/**',
              ],
              message: 'net/ imports nothing from web/, bridge/, plugin-host/ or packager/.',
            },
          ],
        },
      ],
    },
  },
);
