// Lint (`npm run lint`): typescript-eslint, type-aware, with the type information tsc has from
// tsconfig.json, so the rules that need types (floating and misused promises, awaiting what is no
// promise, needless assertions) see what tsc sees. Every rule switched off says why.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'fixtures/'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // `_name` marks a parameter or binding kept for its position or its signature.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      // An `async` function that does not await is how the services turn a thrown LegacyError into a
      // rejection (and how test doubles stand in for async interfaces); rewriting each as
      // Promise.reject/resolve would change no behaviour.
      '@typescript-eslint/require-await': 'off',
      // A caught error (`unknown`) is passed on to reject() as it is.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      // `Value` (a decoded wire value) includes dicts and lists, so every String(value) is flagged,
      // the many behind a type check the rule cannot follow included. What a non-string gives where
      // Odoo wants a string is a compatibility question, settled case by case with a test.
      '@typescript-eslint/no-base-to-string': 'off',
      // The project's objects are closures (`createX()` returning an object literal) whose methods
      // never use `this`, so handing one on (`metrics.observeUpstream`, `expect(mock.fn)`) is safe.
      '@typescript-eslint/unbound-method': 'off',
      // `any` comes in only from JSON.parse of files and child-process output, untyped `new Map()`
      // and untyped event callbacks; each value is checked where it is used (a typed parameter, or
      // a test's expect). A cast at each spot would check nothing more.
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    // plain JavaScript (interop sessions, scripts): no type information, Node's globals
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        URL: 'readonly',
      },
    },
  },
);
