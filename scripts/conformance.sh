#!/usr/bin/env bash
# Checks the core's PostgreSQL and Redis models against the real servers:
#   1. installs PostgreSQL (15 where Debian has it) and Redis from Debian packages if absent
#      (`apt-get update` only when something is missing);
#   2. starts a throwaway PostgreSQL (as the `postgres` user: initdb refuses root) in a fresh
#      temp dir, on 127.0.0.1:$IDEM_PG_PORT only, trust auth, unix socket inside the temp dir,
#      and a throwaway redis-server on 127.0.0.1:$IDEM_REDIS_PORT without persistence;
#   3. runs `cargo test -p idem-conformance` against them (extra arguments go to the test
#      harness, e.g. `bash scripts/conformance.sh --nocapture`);
#   4. always stops both servers and removes the temp dir, whatever happened.
# Non-interactive; safe to re-run (leftovers of a run that was killed are cleaned first).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
if [[ -f scripts/env.sh ]]; then
  # shellcheck source=scripts/env.sh
  . scripts/env.sh
fi

PG_PORT="${IDEM_PG_PORT:-54329}"
REDIS_PORT="${IDEM_REDIS_PORT:-63799}"
PREFERRED_PG=15
TMP_PREFIX="${TMPDIR:-/tmp}/idem-conformance."

say() { printf 'conformance.sh: %s\n' "$*"; }
die() { printf 'conformance.sh: error: %s\n' "$*" >&2; exit 1; }

command -v cargo >/dev/null 2>&1 || die "cargo not found: install Rust with rustup first"

# --- packages ----------------------------------------------------------------
pg_bindir() {
  # The preferred major if installed, else the newest one.
  if [[ -x "/usr/lib/postgresql/$PREFERRED_PG/bin/initdb" ]]; then
    echo "/usr/lib/postgresql/$PREFERRED_PG/bin"
    return
  fi
  local dir
  dir="$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin 2>/dev/null | sort -V | tail -n 1)"
  if [[ -n "$dir" && -x "$dir/initdb" ]]; then
    echo "$dir"
  fi
}

missing=()
[[ -n "$(pg_bindir)" ]] || missing+=(postgres)
command -v redis-server >/dev/null 2>&1 || missing+=(redis)
if ((${#missing[@]} > 0)); then
  [[ $EUID -eq 0 ]] || die "missing ${missing[*]}: run as root to install them with apt-get"
  say "installing ${missing[*]} (apt-get)"
  apt-get update -qq </dev/null
  packages=()
  for m in "${missing[@]}"; do
    case "$m" in
      postgres)
        # postgresql-15 is Debian 12's; elsewhere take the distribution's version.
        candidate="$(apt-cache policy "postgresql-$PREFERRED_PG" 2>/dev/null | awk '/Candidate:/ {print $2}')"
        if [[ -n "$candidate" && "$candidate" != "(none)" ]]; then
          packages+=("postgresql-$PREFERRED_PG")
        else
          packages+=(postgresql)
        fi
        ;;
      redis) packages+=(redis-server) ;;
    esac
  done
  apt-get install -y -qq --no-install-recommends "${packages[@]}" </dev/null
fi
PG_BIN="$(pg_bindir)"
[[ -n "$PG_BIN" ]] || die "PostgreSQL binaries not found under /usr/lib/postgresql"
command -v redis-server >/dev/null 2>&1 || die "redis-server not found"
say "using $("$PG_BIN/postgres" --version) and $(redis-server --version | awk '{print $1, $2, $3}')"

# Commands that touch the data directory run as `postgres` when we are root.
if [[ $EUID -eq 0 ]]; then
  if ! id postgres >/dev/null 2>&1; then
    # The server binaries can be present without the package's system user (a machine image
    # that ships them): create the user rather than fail.
    say "creating the postgres system user"
    useradd --system --user-group --home-dir /var/lib/postgresql --shell /bin/bash postgres
  fi
  as_pg() { runuser -u postgres -- "$@"; }
  PG_OWNER=postgres
else
  as_pg() { "$@"; }
  PG_OWNER="$(id -un)"
fi

# --- leftovers of a killed run -------------------------------------------------
# stop_servers_in DIR MODE: stops the servers a run started in DIR (pg_ctl MODE: fast or
# immediate), each by its own pid file.
stop_servers_in() {
  local dir="$1" mode="$2" pid
  if [[ -f "$dir/pg/data/postmaster.pid" ]]; then
    as_pg "$PG_BIN/pg_ctl" -D "$dir/pg/data" -m "$mode" -w -t 30 stop >/dev/null 2>&1 || true
  fi
  if [[ -f "$dir/redis.pid" ]]; then
    pid="$(cat "$dir/redis.pid" 2>/dev/null || true)"
    if [[ "$pid" =~ ^[0-9]+$ ]] && [[ "$(cat "/proc/$pid/comm" 2>/dev/null || true)" == redis-server* ]]; then
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
      done
    fi
  fi
}
for old in "$TMP_PREFIX"*; do
  [[ -d "$old" ]] || continue
  # A run still going (another shell) owns its servers; only orphans are cleaned.
  owner="$(cat "$old/owner.pid" 2>/dev/null || true)"
  if [[ "$owner" =~ ^[0-9]+$ ]] && kill -0 "$owner" 2>/dev/null; then
    continue
  fi
  say "cleaning up leftovers in $old"
  stop_servers_in "$old" immediate
  rm -rf "$old"
done

# --- servers -------------------------------------------------------------------
WORK="$(mktemp -d "${TMP_PREFIX}XXXXXX")"
cleanup() {
  stop_servers_in "$WORK" fast
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
echo "$$" >"$WORK/owner.pid"
chmod 755 "$WORK"
mkdir -p "$WORK/sock"
chown "$PG_OWNER" "$WORK/sock"
chmod 700 "$WORK/sock"
# initdb creates pgdata itself; the parent is writable by its owner only.
install -d -o "$PG_OWNER" -m 700 "$WORK/pg"

port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port_busy "$PG_PORT" && die "port $PG_PORT is taken (set IDEM_PG_PORT)"
port_busy "$REDIS_PORT" && die "port $REDIS_PORT is taken (set IDEM_REDIS_PORT)"

say "starting PostgreSQL on 127.0.0.1:$PG_PORT"
as_pg "$PG_BIN/initdb" -D "$WORK/pg/data" -U postgres --auth=trust -E UTF8 --locale=C --no-sync \
  >"$WORK/initdb.log" 2>&1 </dev/null || { cat "$WORK/initdb.log" >&2; die "initdb failed"; }
as_pg "$PG_BIN/pg_ctl" -D "$WORK/pg/data" -l "$WORK/pg/postgres.log" -w -t 60 \
  -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -c unix_socket_directories=$WORK/sock -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
  start >/dev/null </dev/null || { cat "$WORK/pg/postgres.log" >&2 || true; die "PostgreSQL did not start"; }

say "starting Redis on 127.0.0.1:$REDIS_PORT"
redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --save '' --appendonly no --daemonize yes \
  --dir "$WORK" --pidfile "$WORK/redis.pid" --logfile "$WORK/redis.log" </dev/null
for _ in $(seq 100); do
  [[ "$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null || true)" == PONG ]] && break
  sleep 0.1
done
[[ "$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null || true)" == PONG ]] \
  || { cat "$WORK/redis.log" >&2 || true; die "Redis did not start"; }
for _ in $(seq 50); do
  [[ -s "$WORK/redis.pid" ]] && break
  sleep 0.1
done

# --- tests ---------------------------------------------------------------------
export IDEM_PG_URL="host=127.0.0.1 port=$PG_PORT user=postgres dbname=postgres"
export IDEM_REDIS_URL="redis://127.0.0.1:$REDIS_PORT/"
say "IDEM_PG_URL=\"$IDEM_PG_URL\" IDEM_REDIS_URL=$IDEM_REDIS_URL"
# One test at a time: the scenarios share one Redis (FLUSHALL per scenario).
cargo test -p idem-conformance -- --test-threads=1 "$@" </dev/null
