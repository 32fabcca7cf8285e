/**
 * Architecture rules (STYLE.md "Rules a tool checks"; issue 18 item 7), checked by `npm run lint`. The tree
 * has no violation: when a rule and a design disagree, change one of them on purpose, in the same commit.
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
