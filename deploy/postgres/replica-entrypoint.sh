#!/bin/sh
# The replica's start (compose.replica.yaml): on an empty data folder, copy the primary with pg_basebackup and
# make the copy follow it as the standby "$STANDBY_NAME"; then run PostgreSQL on it, a hot standby that takes
# reads. Arguments are passed on to postgres.
set -eu
: "${PGDATA:?PGDATA names the replica's data folder}"
: "${PRIMARY_HOST:?PRIMARY_HOST names the primary}"
: "${REPLICATION_PASSWORD:?set REPLICATION_PASSWORD}"
PRIMARY_PORT="${PRIMARY_PORT:-5432}"
REPLICATION_USER="${REPLICATION_USER:-replicator}"
STANDBY_NAME="${STANDBY_NAME:-replica1}"

if [ ! -s "$PGDATA/PG_VERSION" ]; then
    until pg_isready --quiet --host="$PRIMARY_HOST" --port="$PRIMARY_PORT"; do
        echo "replica: waiting for the primary at $PRIMARY_HOST:$PRIMARY_PORT"
        sleep 1
    done
    # What a copy that failed half-way left behind: pg_basebackup wants an empty folder.
    find "$PGDATA" -mindepth 1 -delete
    # --write-recovery-conf writes standby.signal and primary_conninfo from this connection, application_name
    # included: the name the primary knows the standby by (synchronous_standby_names, pg_stat_replication).
    PGPASSWORD="$REPLICATION_PASSWORD" pg_basebackup --pgdata="$PGDATA" --write-recovery-conf \
        --wal-method=stream --checkpoint=fast \
        --dbname="host=$PRIMARY_HOST port=$PRIMARY_PORT user=$REPLICATION_USER application_name=$STANDBY_NAME"
    chmod 700 "$PGDATA"
    # Promoted one day, it must not wait for a standby of its own that does not exist yet.
    echo "synchronous_standby_names = ''" >> "$PGDATA/postgresql.auto.conf"
fi
exec postgres -D "$PGDATA" "$@"
