#!/usr/bin/env bash
# Writes pgo/pokesearch.profdata, the profile release builds are optimised with (Package.swift):
#   scripts/pgo.sh
# Builds instrumented binaries (no profile in, counters out), runs them on a training run
# (the benchmark's workloads generated with another seed than Benchmarks/queries.tsv's, so the
# benchmark times queries the profile never saw: the engine in process, the server over its
# socket, the one-shot CLI), and merges the counts. Run it after changes to the query path,
# then compare with `scripts/bench.sh` (BENCHMARKS.md); a profile older than the code only
# leaves the changed functions unoptimised by it.
#   scripts/pgo.sh --check
# Says whether the profile was trained on these sources (exit 1 and a line on stderr if not;
# scripts/bench.sh asks): a stale profile builds silently, only without its gain in the
# functions that changed.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

# What the profile was trained on: every source file and the build settings, by content.
sources_hash() { find Sources Package.swift -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1; }
if [ "${1:-}" = "--check" ]; then
  [ "$(cat pgo/sources.sha256 2>/dev/null)" = "$(sources_hash)" ] && exit 0
  echo "pgo.sh: pgo/pokesearch.profdata was trained on other sources than these: regenerate it with scripts/pgo.sh" >&2
  exit 1
fi

toolchain_lib="$(dirname "$(command -v swift)")/../lib"
runtime="$(ls "$toolchain_lib"/clang/*/lib/linux/libclang_rt.profile-x86_64.a 2>/dev/null | head -1)"
[ -n "$runtime" ] || { echo "pgo.sh: no libclang_rt.profile in the toolchain ($toolchain_lib/clang)" >&2; exit 1; }
profdata="$(command -v llvm-profdata || true)"
[ -n "$profdata" ] || { echo "pgo.sh: no llvm-profdata beside swift" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
build=.build/pgo-instrumented

# The frontend's LLVM-level instrumentation (-profile-generate would count for Swift's own
# optimiser too, whose use of it crashes: see Package.swift); the driver does not link its
# runtime for it, so it is linked here, kept by its registration symbol.
POKESEARCH_PGO=off swift build -c release --static-swift-stdlib --build-path "$build" \
  -Xswiftc -Xfrontend -Xswiftc -ir-profile-generate="$work/unused.profraw" \
  -Xlinker -u__llvm_profile_runtime -Xlinker "$runtime"

# (Generating the training queries is not what pokesearch runs: its counts are left out.)
export LLVM_PROFILE_FILE="$work/generate.profraw"
"$build/release/pokesearch-bench" --regenerate-queries --seed 1 --queries "$work/training.tsv"
# %p: one file per process (the bench, the server, each one-shot CLI run). A fixed number of
# pipelined requests, not as many as fill two seconds: the same training every time.
export LLVM_PROFILE_FILE="$work/raw/%p.profraw"
"$build/release/pokesearch-bench" --quick --queries "$work/training.tsv" --pokesearch "$build/release/pokesearch" \
  --pipelined-requests 300000 --out "$work/training.json" >/dev/null
unset LLVM_PROFILE_FILE

mkdir -p pgo
# (Functions that never ran stay in, counted zero: LLVM compiles them as cold, for size, and
# places them apart from the code that runs.)
"$profdata" merge -o pgo/pokesearch.profdata "$work"/raw/*.profraw
sources_hash >pgo/sources.sha256
# SwiftPM does not track the profile as an input: the next release build must recompile.
rm -rf .build/release "$(swift build -c release --show-bin-path)"
echo "pgo.sh: wrote pgo/pokesearch.profdata ($(wc -c <pgo/pokesearch.profdata) bytes) from $(ls "$work"/raw | wc -l) processes"
