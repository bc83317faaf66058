// Import rules checked by `npm run check:deps` (scripts/check-deps.mjs), a step of `npm test`.
// Paths are matched anywhere in the path ((?:^|/)apps/...) so that the same rules apply to the fixture the check
// proves itself on (scripts/check-deps/fixture mirrors the repository's layout).

/** Test code assembles the app to test it: it may reach across the web's layers (never into a cycle). */
const TESTS = String.raw`\.test\.tsx?$|\.typetest\.ts$|/testkit\.tsx?$|/test-utils\.tsx?$|/fixtures\.ts$|/testData\.tsx?$|(?:^|/)apps/web/src/test/`;
const WEB = '(?:^|/)apps/web/src/';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No import cycle in the server or the web, type-only imports included: a cycle ties modules together (and at run ' +
        'time can hand a module an import that is not initialised yet). Move what both sides need into a third module.',
      from: { path: '(?:^|/)apps/(server|web)/src/' },
      to: { circular: true },
    },
    {
      name: 'web-lower-layers',
      severity: 'error',
      comment:
        'api/, lib/, components/ and engine/ are the layers every page builds on: they never import a feature, the ' +
        'signed-in shell or the app (route table, providers). Move what they need down (lib/paths.ts for paths).',
      from: { path: `${WEB}(api|lib|components|engine)/`, pathNot: TESTS },
      to: { path: `${WEB}(features|shell|app)/` },
    },
    {
      name: 'web-features-below-app',
      severity: 'error',
      comment: 'A feature never imports the app (route table, providers) or the signed-in shell that lays pages out.',
      from: { path: `${WEB}features/`, pathNot: TESTS },
      to: { path: `${WEB}(app|shell)/` },
    },
    {
      name: 'web-feature-internals',
      severity: 'error',
      comment:
        "A feature uses another feature only through that feature's index.ts (what it offers others); anything " +
        'more widely shared belongs in components/, lib/ or engine/.',
      from: { path: `${WEB}features/([^/]+)/`, pathNot: TESTS },
      to: {
        path: `${WEB}features/[^/]+/`,
        pathNot: String.raw`${WEB}features/($1/|[^/]+/index\.tsx?$)`,
      },
    },
    {
      name: 'web-shell-below-app',
      severity: 'error',
      comment: 'The signed-in shell (shell/) is laid out by the app; it never imports the app itself.',
      from: { path: `${WEB}shell/`, pathNot: TESTS },
      to: { path: `${WEB}app/` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    // `import type` counts: a cycle of types is still a cycle of modules
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'types', 'default'],
      extensions: ['.ts', '.tsx', '.mjs', '.js'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
