// ESLint flat config. Beyond the usual TypeScript rules, it enforces the layering the app's
// safety rests on, with `no-restricted-imports`:
// - shared/          runs anywhere: no Node built-ins, no electron, nothing from electron/ or renderer/;
// - electron/rules/  pure decisions: no Node built-ins, no electron;
// - renderer/        the untrusted window: only renderer/ and shared/ (+ browser packages);
// - only electron/main.ts and electron/preload.ts may import `electron`.
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const builtins = builtinModules.filter((name) => !name.startsWith('_'));
const NODE = [
  { regex: '^node:', message: 'Node built-ins are not allowed in this layer.' },
  { regex: `^(${builtins.map((b) => b.replace(/[/]/g, '\\/')).join('|')})(/.*)?$`, message: 'Node built-ins are not allowed in this layer.' },
];
const ELECTRON = { regex: '^electron(/.*)?$', message: 'Only electron/main.ts and electron/preload.ts may import electron.' };
const NATIVE = { regex: '^(better-sqlite3|chokidar)$', message: 'Native and file-system packages belong to electron/node/.' };
const INTO = (dir) => ({ regex: `(^|/)${dir}/`, message: `This layer may not import from ${dir}/.` });

function restrict(...patterns) {
  return { 'no-restricted-imports': ['error', { patterns }] };
}

export default tseslint.config(
  {
    ignores: ['dist/**', 'release/**', 'build/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'coverage/**', '.vite/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-console': 'off',
    },
  },
  // Everything under electron/ (but the shell files) and every test: no `electron`.
  { files: ['electron/**/*.ts', 'scripts/**/*.js', 'bin/**/*.js'], rules: restrict(ELECTRON) },
  { files: ['electron/main.ts', 'electron/preload.ts'], rules: { 'no-restricted-imports': 'off' } },
  {
    files: ['electron/rules/**/*.ts'],
    // The screen matches control characters on purpose.
    rules: { 'no-control-regex': 'off', ...restrict(ELECTRON, NATIVE, ...NODE, INTO('renderer'), { regex: '(^|/)node/', message: 'Rules are pure: no I/O modules.' }) },
  },
  { files: ['shared/**/*.ts'], rules: restrict(ELECTRON, NATIVE, ...NODE, INTO('electron'), INTO('renderer')) },
  // One SQL style: every statement on the ledger through the statement cache (store/statements.ts).
  {
    files: ['electron/node/**/*.ts', 'electron/cli/**/*.ts'],
    ignores: ['electron/node/store/statements.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'db',
          property: 'prepare',
          message: 'Use stmt(db, sql), or rawStmt(db, sql) for rows as arrays (store/statements.ts). A statement switched into pluck mode, or raw SQL made anew at each call, needs its own prepare: disable this rule on that line and say why.',
        },
      ],
      // A mode switched on a cached statement sticks to it for every later caller of the same SQL.
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name=/^(pluck|raw|expand)$/][callee.object.callee.name='stmt']",
          message: 'A cached statement (stmt) must not be switched into pluck/raw/expand mode: map the rows, or prepare a statement of its own.',
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...restrict(ELECTRON, NATIVE, ...NODE, INTO('electron'), INTO('test')),
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['test/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
);
