// The image's entry point (ENTRYPOINT in the Dockerfile): one role per container,
// `dargah <role> [arguments]`. Plain JavaScript loaded by Node itself, so Node is
// PID 1 and the role's own SIGTERM handling drains (src/main/run.ts), and the
// runtime image needs no shell.
const roles = {
  api: './src/main/api.js',
  worker: './src/main/worker.js',
  migrate: './src/main/migrate.js',
  'bank-sim': './src/bank-sim/main.js',
  cli: './src/cli/main.js',
};
const role = process.argv[2] ?? 'api';
if (!Object.hasOwn(roles, role)) {
  process.stderr.write(`unknown role "${role}": use ${Object.keys(roles).join(', ')}\n`);
  process.exit(64);
}
// The role reads its own arguments from process.argv.slice(2), as `node <file> …` gives them.
process.argv.splice(2, 1);
await import(roles[role]);
