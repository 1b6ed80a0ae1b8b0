/**
 * AVA's settings for `npm test` (scripts/test.sh). Test files are built to dist/test/ by `npm run
 * build` and run from there, each in a process of its own, several at once.
 */

/**
 * The files that take longest, longest first (seconds on a quiet 2-core machine, `npm test`), as
 * measured; every other file comes after them in name order. Started first, they run beside the
 * many short ones, and the run does not end on one long file with the other slots idle.
 */
const LONGEST_FIRST = [
  'cluster', // 247
  'raster-render.browser', // 198
  'fuzz-routes', // 123
  'maps.browser', // 97
  'import', // 94
  'routing-exclude', // 72
  'cli', // 66
  'terrain.browser', // 60
  'bench-scale-grid', // 51
  'routing-cell-threads', // 47
  'start', // 46
  'routing-build', // 45
  'redis-sentinel', // 43
  'terrain-peaks.browser', // 40
  'dashboard-roles.browser', // 39
  'routing-trip', // 39
  'terrain-elevation', // 38
  'routing-real', // 37
];

const rank = (file) => {
  const index = LONGEST_FIRST.indexOf(file.replace(/^.*\/test\//, '').replace(/\.test\.ts$/, ''));
  return index === -1 ? LONGEST_FIRST.length : index;
};

export default {
  files: ['test/**/*.test.ts'],
  typescript: { rewritePaths: { 'test/': 'dist/test/' }, compile: false },
  sortTestFiles: (a, b) => rank(a) - rank(b) || a.localeCompare(b),
  timeout: '2m',
  concurrency: 3,
  workerThreads: false,
  // For a machine loaded well beyond its cores: the niced render threads wait long for a core (with
  // two other busy processes on 2 cores, a 0.3 CPU-s contour tile queued behind the route fuzz's
  // maps passed 100 s), and Redis' replies come late (README.md's configuration table).
  environmentVariables: {
    WAYMARK_RENDER_TIMEOUT_MS: '300000',
    WAYMARK_REDIS_COMMAND_TIMEOUT_MS: '20000',
    WAYMARK_OPERATOR_TIMEOUT_MS: '20000',
  },
};
