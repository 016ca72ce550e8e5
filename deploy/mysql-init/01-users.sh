#!/bin/bash
# MySQL init script (mounted into /docker-entrypoint-initdb.d by docker-compose.yml):
# runs once, when the MySQL container initialises an empty data directory.
# The gateway gets two users, granted only its own database; neither connects
# as root. (Temporal keeps its data in its own PostgreSQL.)
#   dargah_migrate  owns the schema: `npm run migrate` creates and alters the tables and
#                   the ledger's append-only triggers (docs/LEDGER.md) as this user.
#   dargah          the API and the workers: rows only (SELECT, INSERT, UPDATE, DELETE).
#                   No TRIGGER and no DDL, so a compromised gateway cannot drop the
#                   triggers that keep the ledger append-only, nor change a table.
# The passwords come from the container's environment (DARGAH_DB_PASSWORD,
# DARGAH_MIGRATE_DB_PASSWORD), never from this file. DARGAH_DB_NAME, DARGAH_DB_USER and
# DARGAH_MIGRATE_DB_USER rename the database and the users (the tests run this script on a
# shared server); compose leaves them at their defaults.
set -eu

DB="${DARGAH_DB_NAME:-dargah}"
APP_USER="${DARGAH_DB_USER:-dargah}"
MIGRATE_USER="${DARGAH_MIGRATE_DB_USER:-dargah_migrate}"

for name in DARGAH_DB_PASSWORD DARGAH_MIGRATE_DB_PASSWORD; do
  value="${!name:-}"
  if [ -z "$value" ]; then
    echo "01-users.sh: $name is not set" >&2
    exit 1
  fi
  # The gateway puts its passwords in DATABASE_URL and MIGRATE_DATABASE_URL: URL-safe characters only (openssl rand -hex 32).
  case "$value" in
    *[!A-Za-z0-9._~-]*)
      echo "01-users.sh: $name may contain only letters, digits and . _ ~ -" >&2
      exit 1
      ;;
  esac
done
for value in "$DB" "$APP_USER" "$MIGRATE_USER"; do
  case "$value" in
    "" | *[!A-Za-z0-9_]*)
      echo "01-users.sh: database and user names may contain only letters, digits and _" >&2
      exit 1
      ;;
  esac
done

MYSQL_PWD="$MYSQL_ROOT_PASSWORD" mysql --protocol=socket -uroot <<SQL
CREATE DATABASE IF NOT EXISTS \`${DB}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- The schema's owner (npm run migrate, MIGRATE_DATABASE_URL): the tables, their indexes and the
-- ledger's append-only triggers; DROP because migrations retire tables (0008 drops bank_operations).
-- No global privilege, nothing outside its database.
CREATE USER IF NOT EXISTS '${MIGRATE_USER}'@'%' IDENTIFIED BY '${DARGAH_MIGRATE_DB_PASSWORD}';
GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, DROP, INDEX, REFERENCES, TRIGGER ON \`${DB}\`.* TO '${MIGRATE_USER}'@'%';

-- The gateway (DATABASE_URL): rows only.
CREATE USER IF NOT EXISTS '${APP_USER}'@'%' IDENTIFIED BY '${DARGAH_DB_PASSWORD}';
GRANT SELECT, INSERT, UPDATE, DELETE ON \`${DB}\`.* TO '${APP_USER}'@'%';
SQL
