#!/usr/bin/env bash
# Load test (docs/ROBUSTNESS.md): a release `pokesearch serve` on a fresh database, driven by
# pokesearch-stress with 256 clients sending COMPLETE, SEARCH, GET and RELOAD (every 5 s) for
# 60 s after a 20 s warm-up (four reloads: the heap reaches its working size). Fails on any
# error response, on RSS growing more than 10% past the warm-up, or on file descriptors left
# open (more after the run than after the warm-up).  Usage: scripts/load.sh [CLIENTS] [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
clients=${1:-256}
seconds=${2:-60}
swift build -c release --product pokesearch >/dev/null
swift build -c release --product pokesearch-stress >/dev/null
bin=$(swift build -c release --show-bin-path)
work=$(mktemp -d /tmp/pokesearch-load-XXXXXX)
server=
cleanup() {
    [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
"$bin/pokesearch" ingest --quiet --db "$work/db.sqlite"
ulimit -n 4096
"$bin/pokesearch" serve --db "$work/db.sqlite" --socket "$work/s.sock" 2>"$work/server.log" &
server=$!
for _ in $(seq 100); do [ -S "$work/s.sock" ] && break; sleep 0.1; done
[ -S "$work/s.sock" ] || { cat "$work/server.log" >&2; exit 1; }
sleep 0.5 # the index loads after the socket is bound
"$bin/pokesearch-stress" load --socket "$work/s.sock" --pid "$server" --clients "$clients" --seconds "$seconds" --warmup 20
