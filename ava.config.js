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
  'cluster', // 207
  'raster-render.browser', // 107
  'maps.browser', // 80
  'import', // 75
  'terrain.browser', // 74
  'routing-exclude', // 71
  'fuzz-routes', // 61
  'routing-cell-threads', // 59
  'routing-build', // 57
  'bench-scale-grid', // 54
  'osrm-api', // 47
  'cli', // 34
  'redis-sentinel', // 32
  'start', // 31
  'dashboard-phone.browser', // 30
  'terrain-peaks.browser', // 29
  'terrain-elevation', // 28
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
  // For a machine loaded well beyond its cores: the niced render threads wait long for a core, and
  // Redis' replies come late (README.md's configuration table).
  environmentVariables: {
    WAYMARK_RENDER_TIMEOUT_MS: '100000',
    WAYMARK_REDIS_COMMAND_TIMEOUT_MS: '20000',
    WAYMARK_OPERATOR_TIMEOUT_MS: '20000',
  },
};
