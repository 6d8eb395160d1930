#!/bin/sh
# Let a streaming replica in (compose.replica.yaml; docs/operating.md, "A replica, and failover"): a role that
# may replicate, and the pg_hba.conf line for it. PostgreSQL's image runs this once, on a new primary's first
# start (it is mounted in /docker-entrypoint-initdb.d); on a primary that already has its data, run it by hand
# once as the server's user:
#   docker compose ... exec -u postgres -e REPLICATION_PASSWORD postgres sh /replication.sh
# Running it again is safe: it sets the same password again and adds no second line.
set -eu
: "${REPLICATION_PASSWORD:?set REPLICATION_PASSWORD}"
: "${PGDATA:?PGDATA names the primary's data folder}"
REPLICATION_USER="${REPLICATION_USER:-replicator}"

# psql quotes the name and the password itself (%I, %L): nothing in them can change the statement.
psql -v ON_ERROR_STOP=1 --username "${POSTGRES_USER:-postgres}" --dbname "${POSTGRES_DB:-postgres}" \
    --set=name="$REPLICATION_USER" --set=password="$REPLICATION_PASSWORD" <<'SQL'
SELECT format('CREATE ROLE %I WITH REPLICATION LOGIN', :'name')
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'name') \gexec
SELECT format('ALTER ROLE %I WITH PASSWORD %L', :'name', :'password') \gexec
SQL

# "all" in pg_hba.conf does not cover replication: the image's own lines let no standby in.
line="host replication $REPLICATION_USER all scram-sha-256"
grep -qxF "$line" "$PGDATA/pg_hba.conf" || printf '%s\n' "$line" >> "$PGDATA/pg_hba.conf"
psql -v ON_ERROR_STOP=1 --username "${POSTGRES_USER:-postgres}" --dbname "${POSTGRES_DB:-postgres}" \
    --quiet --command "SELECT pg_reload_conf()" > /dev/null
