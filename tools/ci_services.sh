#!/usr/bin/env bash
# Services the test suite needs: Debian's PostgreSQL server and Chromium.
#
#   tools/ci_services.sh install        install them with apt-get if missing (as root)
#   tools/ci_services.sh start          start a throwaway PostgreSQL cluster on a free port;
#                                       prints shell lines: REALPOLITIK_TEST_PG_URL, RP_PG_DIR
#   tools/ci_services.sh stop DIR       stop that cluster and delete it
#   tools/ci_services.sh run CMD...     install, start, run CMD with the URL exported, stop
set -euo pipefail

need_install() {
  local missing=()
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  echo "${missing[@]:-}"
}

install() {
  local missing
  missing="$(need_install)"
  [ -z "${missing// /}" ] && return 0
  if [ "$(id -u)" != 0 ]; then
    echo "ci_services: missing $missing and not root: install them by hand" >&2
    return 0
  fi
  echo "ci_services: installing $missing" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q >&2
  # shellcheck disable=SC2086
  apt-get install -y -q --no-install-recommends $missing >&2
}

bindir() {
  ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
  local bin dir port as=()
  bin="$(bindir)"
  [ -n "$bin" ] || { echo "ci_services: no PostgreSQL server installed" >&2; return 1; }
  dir="$(mktemp -d /tmp/rp-pg.XXXXXX)"
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    chown postgres "$dir"
    as=(runuser -u postgres --)
  fi
  port="$(free_port)"
  "${as[@]}" "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-sync >"$dir/initdb.log" 2>&1 \
    || { cat "$dir/initdb.log" >&2; return 1; }
  "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c max_connections=300" \
    start >&2 || { cat "$dir/server.log" >&2; return 1; }
  "${as[@]}" "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres realpolitik_test >&2
  echo "export REALPOLITIK_TEST_PG_URL=postgresql+psycopg://postgres@127.0.0.1:$port/realpolitik_test"
  echo "export RP_PG_DIR=$dir"
}

stop() {
  local dir="$1" bin as=()
  bin="$(bindir)"
  [ -d "$dir/data" ] || return 0
  [ "$(id -u)" = 0 ] && as=(runuser -u postgres --)
  "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}

run() {
  install
  local lines status=0
  if lines="$(start)"; then
    eval "$lines"
    trap 'stop "$RP_PG_DIR"' EXIT
  else
    echo "ci_services: PostgreSQL did not start; its tests will fail" >&2
  fi
  "$@" || status=$?
  return $status
}

cmd="${1:-}"
shift || true
case "$cmd" in
  install) install ;;
  start) start ;;
  stop) stop "$1" ;;
  run) run "$@" ;;
  *) echo "usage: $0 install|start|stop DIR|run CMD..." >&2; exit 2 ;;
esac
