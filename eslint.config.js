// Lint: strict type-aware rules where they catch real bugs (floating
// promises above all), and no Node built-ins in workflow code, which runs in
// Temporal's deterministic sandbox.
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

/** Kysely's query builders: a call to one of them is a query being built. */
const QUERY_BUILDERS = [
  'selectFrom',
  'insertInto',
  'updateTable',
  'deleteFrom',
  'replaceInto',
  'mergeInto',
  'selectNoFrom',
];

export default tseslint.config(
  {
    ignores: [
      'eslint.config.js',
      '.dependency-cruiser.cjs',
      'node_modules/**',
      '.data/**',
      'test-artifacts/**',
      'dist/**',
      'openapi/generated/**',
      'tools/launcher/*.mjs',
      'test/support/*.cjs',
      'deploy/image/*.mjs',
      'src/pages/assets/**',
    ],
  },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)].map((name) => ({
            name,
            message: 'Workflow code runs in a deterministic sandbox: no Node built-ins (use an activity).',
          })),
        },
      ],
    },
  },
  {
    // Rows have one home: only src/db (its migrations included) builds queries; everything else calls its
    // named functions (docs/ARCHITECTURE.md#layers-and-the-import-rule, "Rows have one home"). The tests and the benchmark's seeding,
    // which look at and prepare rows as a harness, are outside the product.
    files: ['src/**/*.ts', 'activities/**/*.ts', 'tools/**/*.ts'],
    ignores: ['src/db/**', 'tools/bench/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: `CallExpression[callee.type='MemberExpression'][callee.property.name=/^(${QUERY_BUILDERS.join('|')})$/]`,
          message: 'Only src/db builds queries: call (or add) a named function there.',
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'kysely',
              importNames: ['sql'],
              message: 'Only src/db builds queries: call (or add) a named function there.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
    },
  },
);
