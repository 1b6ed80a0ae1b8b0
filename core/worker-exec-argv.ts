/**
 * Node options for the Piscina threads of an ESM worker module. Piscina loads a task module with
 * `require()` first and `import()` when that fails; on Node versions where `require()` loads ES
 * modules (20.19+), that path has crashed our workers at start (a V8 fatal error, "IsGraphAsync
 * must be used on an instantiated module", and an internal assertion on a module "imported again
 * after being required"). Turning it off per thread makes Piscina import the module, as before.
 */
const requireLoadsEsm = (process.features as { require_module?: boolean }).require_module === true;

export const ESM_WORKER_EXEC_ARGV: readonly string[] = requireLoadsEsm
  ? [...process.execArgv, '--no-experimental-require-module']
  : process.execArgv;
