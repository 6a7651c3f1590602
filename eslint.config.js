// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Kysely's query starts: a call to any of them outside src/store/ is a query in the wrong room. */
export const QUERY_STARTS = ['selectFrom', 'insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto'];

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'bench/data/', 'bench/results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-control-regex': 'off',
    },
  },
  {
    // One home for every query: query builders start only in src/store/ (the
    // repositories). Everything else composes their functions and predicates.
    files: ['src/**/*.ts'],
    ignores: ['src/store/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...QUERY_STARTS.map((name) => ({
          selector: `CallExpression > MemberExpression.callee > Identifier.property[name="${name}"]`,
          message: `${name}(): queries live in src/store/ — call (or add) a repository function there.`,
        })),
        {
          selector: 'CallExpression > MemberExpression.callee[object.name="sql"]',
          message: 'sql.*(): raw SQL lives in src/store/ — call (or add) a repository function there.',
        },
        {
          selector: 'TaggedTemplateExpression[tag.name="sql"]',
          message: 'sql`…`: raw SQL lives in src/store/ — call (or add) a repository function there.',
        },
      ],
    },
  },
);
