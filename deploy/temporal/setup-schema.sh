#!/bin/sh
# Creates Temporal's two PostgreSQL databases and applies its schemas with its SQL tool
# (temporal-sql-tool): the base schema, then every versioned step. Idempotent: an
# existing database is kept and only the missing steps are applied. Run by the cluster
# suite (tools/launcher/temporal-cluster.ts) and by docker-compose.yml's temporal-schema.
#   SQL_TOOL       the tool (temporal-sql-tool in Temporal's images; `sql` when built with go install)
#   SCHEMA_DIR     schema/postgresql/v12 of the server's source (/etc/temporal/schema/postgresql/v12 in the images)
#   POSTGRES_HOST, POSTGRES_PORT, POSTGRES_USER, POSTGRES_PASSWORD
#   TEMPORAL_DATABASE, TEMPORAL_VISIBILITY_DATABASE
set -eu
for pair in "${TEMPORAL_DATABASE:-temporal}:temporal" "${TEMPORAL_VISIBILITY_DATABASE:-temporal_visibility}:visibility"; do
  database=${pair%%:*}
  schema=${pair##*:}
  set -- --plugin postgres12 --ep "$POSTGRES_HOST" -p "$POSTGRES_PORT" -u "$POSTGRES_USER" --pw "${POSTGRES_PASSWORD:-}" --db "$database"
  "$SQL_TOOL" "$@" create-database 2>/dev/null || true   # already there on a second run
  "$SQL_TOOL" "$@" setup-schema -v 0.0
  "$SQL_TOOL" "$@" update-schema -d "$SCHEMA_DIR/$schema/versioned"
done
