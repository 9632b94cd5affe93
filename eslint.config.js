// @ts-check
// ESLint flat config. Lint scope: src/, tests/, bench/ (TypeScript, type-aware) plus the
// repo's own JS/CJS config files (plain, no type information).
import { defineConfig, globalIgnores } from 'eslint/config';
import tseslint from 'typescript-eslint';

const TS_FILES = ['src/**/*.ts', 'src/**/*.cts', 'tests/**/*.ts', 'bench/**/*.ts', 'tools/**/*.ts'];
const TEST_FILES = ['tests/**/*.ts', 'bench/**/*.ts', 'src/**/*.spec.ts'];

export default defineConfig(
  globalIgnores(['dist/', 'node_modules/', 'coverage/', 'data/', '.tmp/', 'artifacts/']),

  // A slice of eslint:recommended (the @eslint/js package is not a dependency): correctness rules
  // that TypeScript itself does not cover. Applies to every linted file.
  {
    rules: {
      'no-async-promise-executor': 'error',
      'no-case-declarations': 'error',
      'no-compare-neg-zero': 'error',
      'no-cond-assign': 'error',
      'no-constant-binary-expression': 'error',
      'no-constant-condition': ['error', { checkLoops: false }],
      'no-control-regex': 'error',
      'no-debugger': 'error',
      'no-dupe-else-if': 'error',
      'no-duplicate-case': 'error',
      'no-empty': ['error', { allowEmptyCatch: true }],
      'no-empty-character-class': 'error',
      'no-empty-pattern': 'error',
      'no-ex-assign': 'error',
      'no-fallthrough': 'error',
      'no-invalid-regexp': 'error',
      'no-irregular-whitespace': 'error',
      'no-loss-of-precision': 'error',
      'no-misleading-character-class': 'error',
      'no-prototype-builtins': 'error',
      'no-regex-spaces': 'error',
      'no-self-assign': 'error',
      'no-sparse-arrays': 'error',
      'no-unsafe-finally': 'error',
      'no-unsafe-optional-chaining': 'error',
      'no-unused-labels': 'error',
      'no-useless-catch': 'error',
      'no-useless-escape': 'error',
      'require-yield': 'error',
      'use-isnan': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },

  // Type-aware TypeScript rules for everything we ship or test.
  {
    files: TS_FILES,
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
        // Legacy decorators + decorator metadata (inversify). Typed linting infers these from
        // tsconfig.json too; stating them keeps consistent-type-imports from ever "fixing" an
        // import that decorator metadata needs at runtime.
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'separate-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_' },
      ],
    },
  },

  // Tests and benchmarks: chai property assertions (`expect(x).to.be.true`) are expressions,
  // and fixtures often poke at untyped values. no-floating-promises stays on.
  {
    files: TEST_FILES,
    rules: {
      '@typescript-eslint/no-unused-expressions': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-floating-promises': 'error',
    },
  },

  // Plain JS/CJS config files (eslint.config.js, .dependency-cruiser.cjs, the mocha reporter):
  // no type information; the core rules above plus a few that TypeScript would otherwise catch.
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    rules: {
      'no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      'no-unreachable': 'error',
      'no-dupe-keys': 'error',
      'no-const-assign': 'error',
    },
  },
);
