#!/usr/bin/env bash
# Load tests (docs/ROBUSTNESS.md), on a release `pokesearch serve` over a fresh database.
#
#   scripts/load.sh [CLIENTS] [SECONDS]
#     pokesearch-stress with CLIENTS clients (256) sending COMPLETE, SEARCH, GET and RELOAD
#     (every 5 s) for SECONDS (60) after a 20 s warm-up (four reloads: the heap reaches its
#     working size). Fails on any error response, on RSS growing more than 10% past the
#     warm-up, or on file descriptors left open (more after the run than after the warm-up).
#
#   scripts/load.sh --limits [SECONDS]
#     The server at its connection limit: 1,024 connections held open, two threads
#     connecting and hanging up in a loop, and every 0.2 s a new client timed until it
#     hears `too_many_connections`; after SECONDS (60), SIGTERM, timed until the server
#     has exited. Fails when a new client waited more than 50 ms or SIGTERM took more
#     than 1 s.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product pokesearch >/dev/null
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

if [ "${1:-}" = "--limits" ]; then
    exec python3 - "$bin/pokesearch" "$work" "${2:-60}" <<'PYTHON'
import os, signal, socket, subprocess, sys, threading, time
binary, work, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
path = work + "/s.sock"
server = subprocess.Popen([binary, "serve", "--db", work + "/db.sqlite", "--socket", path],
                          stderr=open(work + "/server.log", "w"))

def connect():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s

def ping(s):
    s.sendall(b"PING\n")
    return s.recv(256)

deadline = time.monotonic() + 60
while True:
    try:
        if ping(connect()) == b'{"ok":true}\n': break
    except OSError:
        pass
    if time.monotonic() > deadline or server.poll() is not None: sys.exit("the server did not start")
    time.sleep(0.1)
held = []
for _ in range(1024):
    s = connect()
    held.append(s)
assert all(ping(s) == b'{"ok":true}\n' for s in held), "a held connection was not served"
running = True
churned = [0, 0]
def churn(slot):
    while running:
        try:
            connect().close()
            churned[slot] += 1
        except OSError:
            pass
threads = [threading.Thread(target=churn, args=(i,)) for i in range(2)]
for t in threads: t.start()
waits, refused = [], 0
end = time.monotonic() + seconds
while time.monotonic() < end:
    start = time.monotonic()
    s = connect()
    line = s.recv(512)
    waits.append(time.monotonic() - start)
    refused += b"too_many_connections" in line
    s.close()
    time.sleep(0.2)
start = time.monotonic()
server.send_signal(signal.SIGTERM)
try:
    server.wait(timeout=30)
except subprocess.TimeoutExpired:
    server.kill()
stopped = time.monotonic() - start
running = False
for t in threads: t.join()
waits.sort()
print(f"{len(held)} connections held, {sum(churned)} churned in {seconds:.0f} s; "
      f"{len(waits)} new clients ({refused} refused): median wait {waits[len(waits)//2]*1000:.2f} ms, "
      f"p99 {waits[int(len(waits)*0.99)]*1000:.2f} ms, max {waits[-1]*1000:.2f} ms; SIGTERM to exit {stopped*1000:.0f} ms "
      f"(status {server.returncode})")
failed = waits[-1] > 0.05 or stopped > 1 or server.returncode != 0 or refused != len(waits)
sys.exit("FAILED: over 50 ms, over 1 s, or not refused" if failed else 0)
PYTHON
fi

clients=${1:-256}
seconds=${2:-60}
swift build -c release --product pokesearch-stress >/dev/null
"$bin/pokesearch" serve --db "$work/db.sqlite" --socket "$work/s.sock" 2>"$work/server.log" &
server=$!
for _ in $(seq 100); do [ -S "$work/s.sock" ] && break; sleep 0.1; done
[ -S "$work/s.sock" ] || { cat "$work/server.log" >&2; exit 1; }
sleep 0.5 # the index loads after the socket is bound
"$bin/pokesearch-stress" load --socket "$work/s.sock" --pid "$server" --clients "$clients" --seconds "$seconds" --warmup 20
