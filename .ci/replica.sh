#!/usr/bin/env bash
# Sets up, idempotently, what tests/graphql/replica_test.ts runs against (issue 15):
# - a PostgreSQL cluster "replica" on 127.0.0.1:5433, a streaming hot standby of the "main"
#   cluster on 5432 (pg_createcluster + pg_basebackup -R);
# - PgBouncer on 127.0.0.1:6432 in transaction pooling mode in front of 5432, run as postgres.
# The main cluster is never stopped or restarted: it only gets a replication line in pg_hba.conf
# and wal_keep_size (both applied with a reload).
# Already set up -> only starts what is down (a standby that cannot stream any more is rebuilt).
set -euo pipefail

VERSION="$(ls /etc/postgresql | sort -V | tail -1)"
MAIN_CONF="/etc/postgresql/$VERSION/main"
REPLICA_DATA="/var/lib/postgresql/$VERSION/replica"
BOUNCER_DIR=/etc/pgbouncer/mikrogql
psql_main() { psql -h 127.0.0.1 -p 5432 -U postgres -d postgres -Atqc "$1"; }
psql_replica() { psql -h 127.0.0.1 -p 5433 -U postgres -d postgres -Atqc "$1"; }

# 1. Primary: allow replication connections from loopback, keep WAL for a standby that stops a
#    few seconds (the failover test) while other people's tests create and drop databases.
if ! grep -Eq '^host\s+replication\s+all\s+127\.0\.0\.1/32\s+trust' "$MAIN_CONF/pg_hba.conf"; then
  echo "host replication all 127.0.0.1/32 trust" >>"$MAIN_CONF/pg_hba.conf"
  psql_main "select pg_reload_conf()" >/dev/null
fi
if [ "$(psql_main "show wal_keep_size")" = "0" ]; then
  psql_main "alter system set wal_keep_size = '1GB'"
  psql_main "select pg_reload_conf()" >/dev/null
fi

# 2. The standby on 5433.
build_replica() {
  if pg_lsclusters -h | awk '{print $1" "$2}' | grep -qx "$VERSION replica"; then
    pg_dropcluster --stop "$VERSION" replica
  fi
  pg_createcluster "$VERSION" replica -p 5433 >/dev/null
  install -o postgres -g postgres -m 640 "$MAIN_CONF/pg_hba.conf" "/etc/postgresql/$VERSION/replica/"
  find "$REPLICA_DATA" -mindepth 1 -delete
  runuser -u postgres -- pg_basebackup -h 127.0.0.1 -p 5432 -U postgres -D "$REPLICA_DATA" \
    -R -X stream -c fast
  pg_ctlcluster --skip-systemctl-redirect "$VERSION" replica start
}
streaming() {
  [ "$(psql_replica "select pg_is_in_recovery()" 2>/dev/null)" = "t" ] &&
    [ "$(psql_replica "select status from pg_stat_wal_receiver" 2>/dev/null)" = "streaming" ]
}
wait_streaming() {
  for _ in $(seq 1 "$1"); do
    streaming && return 0
    sleep 0.5
  done
  return 1
}
if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -qx "$VERSION replica"; then
  build_replica
elif ! pg_isready -h 127.0.0.1 -p 5433 -q; then
  pg_ctlcluster --skip-systemctl-redirect "$VERSION" replica start || true
fi
if ! wait_streaming 40; then
  echo "replica on 5433 does not stream from 5432: rebuilding it" >&2
  build_replica
  wait_streaming 60 || {
    echo "replica on 5433 does not stream" >&2
    exit 1
  }
fi
# A test run that was killed while replay was paused leaves it paused.
psql_replica "select pg_wal_replay_resume() where pg_is_wal_replay_paused()" >/dev/null

# 3. PgBouncer on 6432, transaction pooling, in front of the primary.
if ! command -v pgbouncer >/dev/null; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer >/dev/null
fi
if ! pg_isready -h 127.0.0.1 -p 6432 -q; then
  mkdir -p "$BOUNCER_DIR"
  cat >"$BOUNCER_DIR/pgbouncer.ini" <<'INI'
[databases]
* = host=127.0.0.1 port=5432
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = 6432
unix_socket_dir =
auth_type = trust
auth_file = /etc/pgbouncer/mikrogql/userlist.txt
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 20
ignore_startup_parameters = extra_float_digits,search_path
logfile = /var/log/postgresql/pgbouncer-mikrogql.log
pidfile = /var/run/postgresql/pgbouncer-mikrogql.pid
INI
  echo '"postgres" ""' >"$BOUNCER_DIR/userlist.txt"
  chown -R postgres:postgres "$BOUNCER_DIR"
  mkdir -p /var/run/postgresql && chown postgres:postgres /var/run/postgresql
  runuser -u postgres -- pgbouncer -d "$BOUNCER_DIR/pgbouncer.ini"
  for _ in $(seq 1 20); do
    pg_isready -h 127.0.0.1 -p 6432 -q && break
    sleep 0.25
  done
  pg_isready -h 127.0.0.1 -p 6432 -q || {
    echo "PgBouncer did not start on 6432" >&2
    exit 1
  }
fi
echo "replica on 5433 streaming from 5432; PgBouncer (transaction mode) on 6432"
