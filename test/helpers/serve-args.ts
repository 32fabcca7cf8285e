/**
 * Node's arguments for `fieldwork serve --role <role>` from the sources (tsx) on a free port, then
 * `extra`: how the tests and benchmarks that need a real serving process start one.
 */
export const serveFromSources = (role: 'api' | 'worker', ...extra: string[]): string[] => [
  '--import',
  'tsx',
  'src/main.ts',
  'serve',
  '--role',
  role,
  '--port',
  '0',
  ...extra,
];
