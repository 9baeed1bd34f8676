import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
  {
    files: ['*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable' } },
  },
  {
    // The command a merchant runs: CommonJS, as the bundle it loads.
    files: ['bin/**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { process: 'readonly', require: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The dashboard's script runs in the browser as it is shipped.
    files: ['dashboard/**/*.js'],
    languageOptions: {
      globals: { document: 'readonly', fetch: 'readonly', EventSource: 'readonly', URLSearchParams: 'readonly' },
    },
  },
);
