#!/usr/bin/env bash
# Times two builds of the engine against each other in the same minutes (BENCHMARKS.md,
# "Comparing two builds"):
#   scripts/bench-paired.sh [--rounds N] OLD [NEW]
# OLD and NEW are each a commit (checked out in a worktree under $TMPDIR and built there,
# kept for the next run) or a pokesearch-bench binary; NEW is this checkout as it is when
# left out. Commits are built with POKESEARCH_PGO=off, so that neither side has a profile
# trained on the other. Each round runs both, `--engine --quick` on this checkout's
# Benchmarks/queries.tsv, pinned to CPU 0, the order swapped every round (N rounds, 12 by
# default); each side reads its own checkout's corpus. Prints each round's ratios NEW/OLD
# and, last, their medians: search median, search p99, completion median.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"

usage() { echo "usage: scripts/bench-paired.sh [--rounds N] OLD [NEW]  (each a commit or a pokesearch-bench binary)" >&2; exit 2; }
rounds=12
if [ "${1:-}" = --rounds ]; then
  [[ "${2:-}" =~ ^[1-9][0-9]*$ ]] || usage
  rounds=$2
  shift 2
fi
[ $# -ge 1 ] && [ $# -le 2 ] || usage
command -v taskset >/dev/null || { echo "bench-paired.sh: taskset is needed (util-linux)" >&2; exit 2; }

work="${TMPDIR:-/tmp}/pokesearch-paired"
mkdir -p "$work"

# Builds pokesearch-bench (PGO off, static) in `directory` and prints its path.
build() {
  local directory=$1
  (cd "$directory" && POKESEARCH_PGO=off swift build -c release --static-swift-stdlib --product pokesearch-bench \
     --scratch-path .build/paired >&2)
  echo "$directory/.build/paired/release/pokesearch-bench"
}

# The bench binary for OLD or NEW: a binary as given, else a commit's build in its worktree.
bench_for() {
  local side=$1
  if [ -f "$side" ] && [ -x "$side" ]; then realpath -- "$side"; return; fi
  local commit
  commit=$(git rev-parse --verify --quiet "$side^{commit}") || { echo "bench-paired.sh: '$side' is neither a binary nor a commit" >&2; exit 2; }
  local tree="$work/$commit"
  # (A worktree whose directory was cleared away is pruned before it is added again.)
  [ -d "$tree" ] || { git worktree prune; git worktree add --detach "$tree" "$commit" >&2; }
  echo "building $side (${commit:0:12}) in $tree" >&2
  build "$tree"
}

old=$(bench_for "$1")
if [ $# -eq 2 ]; then
  new=$(bench_for "$2")
else
  echo "building this checkout" >&2
  new=$(build "$PWD")
fi

runs=$(mktemp -d "$work/runs-XXXXXX")
queries="$PWD/Benchmarks/queries.tsv"
figures="search.mixed.median search.mixed.p99 complete.mixed.median"
echo "round  order    $figures (NEW/OLD)"
for round in $(seq "$rounds"); do
  if [ $((round % 2)) = 1 ]; then order="old new"; else order="new old"; fi
  for side in $order; do
    binary=$old; [ "$side" = new ] && binary=$new
    taskset -c 0 "$binary" --engine --quick --queries "$queries" --out "$runs/$side.$round.json" >/dev/null 2>&1 \
      || { echo "bench-paired.sh: the $side bench failed in round $round ($binary)" >&2; exit 1; }
  done
  # The newer bench reads both results (its --compare prints each figure's ratio last).
  line=$("$new" --compare "$runs/old.$round.json" "$runs/new.$round.json" \
         | awk -v want="$figures" 'BEGIN { n = split(want, names, " ") }
                                   { ratio[$1] = $NF }
                                   END { for (i = 1; i <= n; i++) printf "%s%s", (i > 1 ? " " : ""), ratio[names[i]]; print "" }')
  [ "$(wc -w <<< "$line")" = 3 ] || { echo "bench-paired.sh: round $round's results lack a figure ($figures)" >&2; exit 1; }
  printf '%5d  %-7s  %s\n' "$round" "${order// /-}" "$line"
  echo "$line" >> "$runs/ratios"
done
# Medians of the rounds' ratios, a figure a column.
medians=""
for column in 1 2 3; do
  medians+=" $(cut -d' ' -f$column "$runs/ratios" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }')"
done
echo "median              ${medians# }"
echo "(results: $runs)"
