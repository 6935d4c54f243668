import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-*/**', '**/node_modules/**', 'data/**', 'apps/server/src/db/migrations/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  { files: ['**/*.{js,mjs}'], languageOptions: { globals: { ...globals.node } } },
  { files: ['apps/web/public/**/*.js'], languageOptions: { globals: { ...globals.serviceworker } } },
  { files: ['apps/server/src/test/standins/**/*.js'], languageOptions: { globals: { ...globals.browser } } },
  // Type-aware rules: a promise nobody awaits loses its rejection. projectService finds each file's nearest
  // tsconfig.json (apps/server, apps/web, packages/shared, and the root one for e2e/, bench/ and vitest.config.ts).
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // react-router types navigate() as void | Promise<void>; under <BrowserRouter> it returns nothing and never rejects.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [{ from: 'package', package: 'react-router', name: 'NavigateFunction' }],
        },
      ],
      // JSX handlers may be async (antd's Form onFinish and Popconfirm onConfirm await what they get); everywhere else
      // a promise passed where void is expected is a lost rejection.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  // In the web a `void promise` hides a rejection from the user: hand it to settle() (api/request.ts), which shows
  // what went wrong, or catch it where it is made.
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    // client.test.ts writes `void api.get(...)` lines that exist only for the type checker and never run. The console
    // pages (pages/admin) are being built on other branches; they join when those land.
    ignores: ['apps/web/src/**/*.test.{ts,tsx}', 'apps/web/src/pages/admin/**'],
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          ignoreVoid: false,
          allowForKnownSafeCalls: [
            { from: 'package', package: 'react-router', name: 'NavigateFunction' },
            // QueryClient's invalidate/refetch resolve even when a refetch fails (throwOnError is off by default).
            { from: 'package', package: '@tanstack/query-core', name: ['invalidateQueries', 'refetchQueries'] },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules, 'react-hooks/set-state-in-effect': 'off' },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name='process'][property.name='env']",
          message: 'Read configuration through apps/server/src/config.ts only.',
        },
      ],
    },
  },
  // Layers (docs/ARCHITECTURE.md section 1): dependencies point down only. Each group lists every ban that applies to
  // its files, because a later block replaces an earlier one's options for the same rule.
  ...serverLayers(),
  ...webLayers(),
  // Size: a server function over 80 lines or a React component over 200 does more than one thing. Route tables
  // (*.routes.ts, the simulated creator site's pages) are lists of declarations, not logic, and are left out.
  {
    files: ['apps/server/src/**/*.ts'],
    ignores: ['**/*.test.ts', 'apps/server/src/test/**', '**/*.routes.ts', 'apps/server/src/integrations/platforms/sandbox-site.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }] },
  },
  { files: ['apps/web/src/**/*.tsx'], rules: { 'max-lines-per-function': ['error', { max: 200, skipBlankLines: true, skipComments: true }] } },
  {
    files: ['apps/server/src/config.ts', 'scripts/**', 'e2e/**', 'bench/**', 'vitest.config.ts', 'apps/server/src/test/**', 'apps/server/drizzle.config.ts', '**/*.test.ts'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  // A suite that needs PostgreSQL or Redis is declared either way, so a run without them reports it as skipped (naming
  // the missing variable) instead of leaving it out: apps/server/src/test/database.ts.
  {
    files: ['apps/server/src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.object.name='describe'][callee.property.name='each'] > Identifier[name='testDbKinds']",
          message: "Use describeOnDatabases('... on %s', (dbKind) => ...) from test/database.ts: without TEST_DATABASE_URL it reports the PostgreSQL suite as skipped.",
        },
        {
          selector: "CallExpression[callee.property.name=/^(runIf|skipIf)$/] MemberExpression[object.object.name='process'][object.property.name='env'][property.name=/^TEST_/]",
          message: "Use describeNeeding(['TEST_...'], name, (...values) => ...) from test/database.ts: its skip names the missing variable.",
        },
      ],
    },
  },
);

function serverLayers() {
  const src = 'apps/server/src';
  const entry = {
    regex: '^(\\./|(\\.\\./)+)(app|container|main)\\.js$',
    message: 'app.ts, container.ts and main.ts are the composition root: only main.ts, admin.ts, cli/ and tests import them. Take what you need as a constructor argument.',
  };
  const up = (layers, why) => ({ regex: `^(\\.\\./)+(${layers.join('|')})/`, message: why });
  const entryFree = [`${src}/app.ts`, `${src}/container.ts`, `${src}/main.ts`, `${src}/admin.ts`, `${src}/cli/**`, `${src}/test/**`, `${src}/**/*.test.ts`];
  const rule = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
  return [
    { files: [`${src}/**/*.ts`], ignores: entryFree, rules: rule(entry) },
    {
      files: [`${src}/integrations/**/*.ts`],
      ignores: entryFree,
      // http/envelope.js is allowed: an integration's own sandbox pages (the SMS outbox) answer in the API envelope.
      rules: rule(entry, {
        regex: '^(\\.\\./)+(modules/|http/(?!envelope\\.js$))',
        message: 'An integration knows its config and its own types: no module logic, no HTTP layer but http/envelope.js (docs/ARCHITECTURE.md).',
      }),
    },
    {
      // Services reach the database through their area's repository; types of rows may still be named.
      files: [`${src}/modules/**/*.ts`],
      ignores: [...entryFree, `${src}/modules/**/*.repo.ts`, `${src}/modules/**/*.module.ts`],
      rules: rule(
        entry,
        { group: ['drizzle-orm', 'drizzle-orm/*'], allowTypeImports: true, message: "Queries live in the area's <name>.repo.ts; a service calls the repository." },
        { regex: '^(\\.\\./)+db/schema/', allowTypeImports: true, message: "Tables are read and written in the area's <name>.repo.ts; a service calls the repository." },
      ),
    },
    // The CLI registry imports every <area>.commands.ts; they take AdminCommand and requireArg from cli/command.ts.
    {
      files: [`${src}/cli/*.commands.ts`],
      rules: rule({ regex: '^\\./commands\\.js$', message: 'Import AdminCommand and requireArg from ./command.js: commands.ts imports this file (no cycle).' }),
    },
    {
      files: [`${src}/http/**/*.ts`],
      ignores: entryFree,
      rules: rule(entry, up(['modules'], 'http/ is infrastructure: depend on an interface declared in http/, not on a module.')),
    },
    {
      files: ['jobs', 'browser', 'db', 'security'].map((d) => `${src}/${d}/**/*.ts`),
      ignores: entryFree,
      rules: rule(entry, up(['modules', 'integrations'], 'Infrastructure (jobs, browser, db, security) never imports modules or integrations.')),
    },
  ];
}

function webLayers() {
  const src = 'apps/web/src';
  const up = (layers, why) => ({ 'no-restricted-imports': ['error', { patterns: [{ regex: `^(\\.\\./)+(${layers.join('|')})/`, message: why }] }] });
  return [
    {
      files: ['api', 'stores', 'components'].map((d) => `${src}/${d}/**/*.{ts,tsx}`),
      rules: up(['features', 'pages'], 'api/, stores/ and components/ sit below features/ and pages/: pass behaviour in as props or move the file up.'),
    },
    { files: [`${src}/features/**/*.{ts,tsx}`], rules: up(['pages'], 'features/ sit below pages/: a page imports a feature, never the other way round.') },
  ];
}
