// @ts-check
// One lint for the whole repository: the function, its tests, the scripts and benches, and the web app.
// Formatting is Prettier's job (.prettierrc.json); these rules catch mistakes, not style.
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      'functions/lib/**',
      'web/dist*/**',
      'web/src/api/schema.d.ts',
      '.emulators/**',
      '.bench/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // An unused name is a finding; a leading underscore says "unused on purpose".
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: [
      'functions/src/**/*.ts',
      'test/**/*.ts',
      'scripts/**/*.mjs',
      'bench/**/*.mjs',
      'examples/**/*.mjs',
      '*.mjs',
    ],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // A script the browser tests serve to Chromium in place of one from the network.
    files: ['test/web/support/*.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
  },
  {
    // CommonJS on purpose: the benchmark's bare-Express floor function and the write tap loaded with --require.
    files: ['**/*.cjs', 'bench/floorFunction/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['test/**/*.ts'],
    languageOptions: { globals: { ...globals.mocha, ...globals.browser } },
    rules: {
      // Tests read untyped JSON replies; typing every body would say nothing the assertions don't.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    // The rules of hooks and their dependency lists; the React Compiler's stricter rules (v7's
    // recommended set) would flag patterns the app uses deliberately, such as a fetch in an effect.
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['web/scripts/**/*.mjs', 'web/vite.config.ts'],
    languageOptions: { globals: { ...globals.node } },
  },
);
