#!/usr/bin/env bash
# The robustness checks CI runs (docs/ROBUSTNESS.md): every fuzz target for 30 s, then the
# server suites (protocol, socket file, client) and the lock's under ThreadSanitizer (the
# server's connection and reload threads, the index swap, the built binary itself). Builds go
# under .build/fuzz and .build/tsan, so the regular debug build is left as it was. Estimated
# 8-10 minutes from a cold cache on 2 cores, mostly the two builds (not yet timed end to end).
# Exits non-zero on the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-30}
mkdir -p .build/fuzz
for target in fuzz-query fuzz-protocol fuzz-corpus fuzz-mapping; do
    echo "== $target for $seconds s"
    log=.build/fuzz/ci-$target.log
    status=0
    scripts/fuzz.sh "$target" "$seconds" >"$log" 2>&1 || status=$?
    grep -E "^(stat::|Done |INFO: seed corpus)" "$log" || true
    if [ "$status" != 0 ]; then
        grep -v "Cannot export local symbol" "$log" | tail -40 >&2
        echo "ci-robustness: $target failed (input in .build/fuzz/artifacts/)" >&2
        exit 1
    fi
done
echo "== ThreadSanitizer: the server and locking suites"
# The whole suite under TSan (scripts/sanitizers.sh thread) took 11-22 minutes here, on top of the
# fuzzing and the two builds: too close to CI's 30-minute budget. These suites cover the
# threads: a thread per connection, the reload threads and the index swap, the built binary itself, and
# the lock everything shares.
scripts/sanitizers.sh thread --filter 'Server|Locking'
