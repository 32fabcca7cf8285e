/**
 * Architecture rules (STYLE.md "Rules a tool checks"; issue 18 item 7), checked by `npm run lint`.
 * Violations that predate these rules are listed in .dependency-cruiser-known-violations.json and are to be
 * removed, not added to: a new one fails the lint. Regenerate that file only when removing entries
 * (`npx depcruise-baseline src --config .dependency-cruiser.cjs`).
 */
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycles',
      comment: 'Folders depend on each other in one direction only.',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'shared-layers-import-no-module',
      comment: 'db/, http/, events/, jobs/ and files/ are shared layers: app.ts hands them what they need of a module.',
      severity: 'error',
      from: { path: '^src/(db|http|events|jobs|files)/' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'no-other-modules-store',
      comment: "A module reaches another only through that module's service functions, never its store.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/.+[.]store[.]ts$', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'cli-and-web-use-services',
      comment: 'The CLI, the server start and the pages call services, never stores.',
      severity: 'error',
      from: { path: '^src/(main|cli-commands|server|app)[.]ts$|^src/web/' },
      to: { path: '^src/modules/.+[.]store[.]ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '[.]test[.]ts$|[.]test-helper[.]ts$' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
