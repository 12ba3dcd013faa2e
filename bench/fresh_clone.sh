#!/usr/bin/env bash
# `npm install && npm start` on a fresh clone (bench/README.md, "Figures"): clones the committed HEAD of
# this repository (uncommitted files are not in a clone) into /tmp/fc-XXXX, times `npm install`,
# then starts `npm start` (under setsid, PORT in 8540-8549) and times it until
# http://127.0.0.1:PORT/ first answers 200. The app is stopped by process group and the clone
# removed. Needs the npm registry. Writes .bench-out/fresh_clone.json (and the install and start
# logs of each run beside it).
#
# Usage: bench/fresh_clone.sh [cold|warm|both] [runs]   (default: both 3; medians are reported)
#   cold  empty npm cache and DENO_DIR: a machine that never ran npm or Deno
#   warm  this machine's npm cache and DENO_DIR
set -euo pipefail

MODE="${1:-both}"
RUNS="${2:-3}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="$ROOT/.bench-out/fresh_clone.json"
START_TIMEOUT_S=300
STOP_TIMEOUT_S=10

case "$MODE:$RUNS" in cold:[1-9] | warm:[1-9] | both:[1-9]) ;; *)
  echo "usage: $0 [cold|warm|both] [runs 1-9]" >&2
  exit 2
  ;;
esac

now() { echo "$EPOCHREALTIME"; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { printf "%.1f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

free_port() {
  for port in $(seq 8540 8549); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return
    fi
  done
  echo "no free port in 8540-8549" >&2
  exit 1
}

DIR=""
PGID=""
OWN_PGID="$(ps -o pgid= -p $$ | tr -d ' ')"
stop_app() {
  [ -n "$PGID" ] && [ "$PGID" != "$OWN_PGID" ] || return 0
  kill -TERM -- "-$PGID" 2>/dev/null || true
  for _ in $(seq 1 $((STOP_TIMEOUT_S * 10))); do
    kill -0 -- "-$PGID" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL -- "-$PGID" 2>/dev/null || true
  PGID=""
}
cleanup() {
  stop_app
  [ -z "$DIR" ] || rm -rf "$DIR"
  DIR=""
}
trap cleanup EXIT

# Runs one fresh clone; sets INSTALL_S and START_S.
INSTALL_S=""
START_S=""
run_once() {
  local mode="$1" port t0 t1 t2 pid code
  DIR="$(mktemp -d /tmp/fc-XXXX)"
  git clone --quiet "$ROOT" "$DIR/app"
  port="$(free_port)"
  local env=(PORT="$port")
  if [ "$mode" = cold ]; then
    env+=(npm_config_cache="$DIR/npm-cache" DENO_DIR="$DIR/deno-dir")
  fi

  t0="$(now)"
  (cd "$DIR/app" && env "${env[@]}" npm install --no-audit --no-fund >"$DIR/install.log" 2>&1) || {
    echo "npm install failed:" >&2
    tail -20 "$DIR/install.log" >&2
    exit 1
  }
  t1="$(now)"

  (cd "$DIR/app" && exec env "${env[@]}" setsid npm start >"$DIR/start.log" 2>&1) &
  pid=$!
  # A background job of a non-interactive shell is no group leader, so setsid does not fork:
  # once it has run, the job is the leader of its own group. Until then it is in ours, so
  # PGID is set only after that is seen (stop_app must never signal this script's group).
  for _ in $(seq 1 100); do
    [ "$(ps -o pgid= -p "$pid" | tr -d ' ')" = "$pid" ] && break
    sleep 0.05
  done
  if [ "$(ps -o pgid= -p "$pid" | tr -d ' ')" != "$pid" ]; then
    kill "$pid" 2>/dev/null || true
    echo "npm start did not get its own process group" >&2
    exit 1
  fi
  PGID="$pid"
  while :; do
    code="$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://127.0.0.1:$port/" || true)"
    [ "$code" = 200 ] && break
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "npm start exited before answering:" >&2
      tail -20 "$DIR/start.log" >&2
      exit 1
    fi
    if [ "$(elapsed "$t1" "$(now)" | cut -d. -f1)" -ge "$START_TIMEOUT_S" ]; then
      echo "no 200 on / within ${START_TIMEOUT_S}s" >&2
      exit 1
    fi
    sleep 0.1
  done
  t2="$(now)"
  stop_app
  mkdir -p "$ROOT/.bench-out"
  cp "$DIR/install.log" "$ROOT/.bench-out/fresh_clone_${mode}_install.log"
  cp "$DIR/start.log" "$ROOT/.bench-out/fresh_clone_${mode}_start.log"
  cleanup
  INSTALL_S="$(elapsed "$t0" "$t1")"
  START_S="$(elapsed "$t1" "$t2")"
}

# Runs `mode` RUNS times; prints one line per run and sets RESULT to the JSON of the medians.
RESULT=""
measure() {
  local mode="$1" installs=() starts=() i
  for i in $(seq 1 "$RUNS"); do
    run_once "$mode"
    echo "fresh clone ($mode, run $i/$RUNS): npm install ${INSTALL_S} s, npm start → first 200 on / ${START_S} s"
    installs+=("$INSTALL_S")
    starts+=("$START_S")
  done
  local install start
  install="$(median "${installs[@]}")"
  start="$(median "${starts[@]}")"
  echo "fresh clone ($mode, median of $RUNS): npm install ${install} s, npm start → first 200 on / ${start} s"
  local list_i list_s
  list_i="$(IFS=,; echo "${installs[*]}")"
  list_s="$(IFS=,; echo "${starts[*]}")"
  RESULT="$(printf '{ "npmInstallS": %s, "firstResponseS": %s, "npmInstallRunsS": [%s], "firstResponseRunsS": [%s] }' \
    "$install" "$start" "$list_i" "$list_s")"
}

COMMIT="$(git -C "$ROOT" rev-parse --short HEAD)"
COLD="null"
WARM="null"
if [ "$MODE" != warm ]; then
  measure cold
  COLD="$RESULT"
fi
if [ "$MODE" != cold ]; then
  measure warm
  WARM="$RESULT"
fi

mkdir -p "$ROOT/.bench-out"
cat >"$OUT" <<EOF
{
  "at": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
  "commit": "$COMMIT",
  "node": "$(node --version)",
  "npm": "$(npm --version)",
  "cold": $COLD,
  "warm": $WARM
}
EOF
echo "written to .bench-out/fresh_clone.json"
