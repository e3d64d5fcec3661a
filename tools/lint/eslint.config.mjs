// ESLint for tpkit: the recommended rules of ESLint and typescript-eslint (syntax only, no type
// information, so it runs without a build), over src, test, bench, scripts and the playground.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'build/**', 'node_modules/**', 'tools/**/node_modules/**', 'cdx/**', 'src/**/*.generated.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      // A leading underscore marks a value left unused on purpose (a skipped tuple element, a rest sibling).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // JSON answers are typed where they are read; `any` marks the parse boundary.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  // TypeScript checks names itself; ESLint's check only knows the globals it is told.
  { files: ['**/*.ts', '**/*.cts', '**/*.mts'], rules: { 'no-undef': 'off' } },
  // CommonJS files (a Hardhat 2 project's config, which cannot be ESM): require is their import.
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs' }, rules: { '@typescript-eslint/no-require-imports': 'off' } },
  { files: ['web/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
  // Tests match terminal output, whose columns are runs of spaces.
  { files: ['test/**/*.ts'], rules: { 'no-regex-spaces': 'off' } },
);
