#!/bin/sh
# The image's entry: one role per container. `exec`, so node is the process that
# receives SIGTERM and drains (src/main/run.ts): the API stops accepting and
# finishes its requests, the worker finishes its tasks.
set -eu
role="${1:-api}"
[ "$#" -gt 0 ] && shift
case "$role" in
  api) exec node dist/src/main/api.js "$@" ;;
  worker) exec node dist/src/main/worker.js "$@" ;;
  migrate) exec node dist/src/main/migrate.js "$@" ;;
  bank-sim) exec node dist/src/bank-sim/main.js "$@" ;;
  cli) exec node dist/src/cli/main.js "$@" ;;
  *) echo "unknown role \"$role\": use api, worker, migrate, bank-sim or cli" >&2; exit 64 ;;
esac
