import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'apps/server/src/db/migrations/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ['**/*.{js,mjs}'], languageOptions: { globals: { ...globals.node } } },
  { files: ['apps/web/public/**/*.js'], languageOptions: { globals: { ...globals.serviceworker } } },
  { files: ['apps/server/src/test/standins/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules, 'react-hooks/set-state-in-effect': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', {
        selector: "MemberExpression[object.name='process'][property.name='env']",
        message: 'Read configuration through apps/server/src/config.ts only.',
      }],
    },
  },
  {
    files: ['apps/server/src/config.ts', 'scripts/**', 'e2e/**', 'bench/**', 'vitest.config.ts', 'apps/server/src/test/**', 'apps/server/drizzle.config.ts', '**/*.test.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
