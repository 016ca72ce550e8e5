#!/bin/bash
# MySQL init script (mounted into /docker-entrypoint-initdb.d by docker-compose.yml):
# runs once, when the MySQL container initialises an empty data directory.
# The gateway gets its own user, granted only its own database; it never
# connects as root. (Temporal keeps its data in its own PostgreSQL.) The
# password comes from the container's environment (DARGAH_DB_PASSWORD), never
# from this file.
set -eu

for name in DARGAH_DB_PASSWORD; do
  value="${!name:-}"
  if [ -z "$value" ]; then
    echo "01-users.sh: $name is not set" >&2
    exit 1
  fi
  # The gateway puts its password in DATABASE_URL: URL-safe characters only (openssl rand -hex 32).
  case "$value" in
    *[!A-Za-z0-9._~-]*)
      echo "01-users.sh: $name may contain only letters, digits and . _ ~ -" >&2
      exit 1
      ;;
  esac
done

MYSQL_PWD="$MYSQL_ROOT_PASSWORD" mysql --protocol=socket -uroot <<SQL
CREATE DATABASE IF NOT EXISTS \`dargah\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci;

-- The gateway: its tables' rows, and the schema changes its migrations make (TRIGGER: the ledger's
-- append-only triggers, docs/LEDGER.md). No DROP, no global privilege.
CREATE USER IF NOT EXISTS 'dargah'@'%' IDENTIFIED BY '${DARGAH_DB_PASSWORD}';
GRANT SELECT, INSERT, UPDATE, DELETE, CREATE, ALTER, INDEX, REFERENCES, TRIGGER ON \`dargah\`.* TO 'dargah'@'%';
SQL
