#!/usr/bin/env bash
# Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
#
# CI step: build the benchmarks and check the allocation thresholds in Thresholds/. Malloc counts are deterministic,
# so each checked benchmark runs only a few samples (EXECKIT_BENCHMARK_QUICK=1); speed is never checked here.
# About 3 minutes from a clean Benchmarks/.build on 2 cores, most of it the harness's first build.
#
# Exit status: 0 when every count equals its threshold or is lower (then it says which file to lower), non-zero on
# a build failure, a warning in the benchmark sources, or a count above its threshold.
set -euo pipefail
cd "$(dirname "$0")"

echo "== build the benchmarks (release)"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
swift build -c release 2>&1 | tee "$log" | grep -E 'error|warning|Compiling (Exec|BenchmarkSupport)|Build' || true
if grep -E '/Benchmarks/(Benchmarks|Sources)/.*: (warning|error):' "$log"; then
    echo "error: the benchmark sources must build without warnings" >&2
    exit 1
fi

# Check only the benchmarks that have thresholds: Thresholds/<Suite>.<benchmark>.p90.json.
names=()
for file in Thresholds/*.p90.json; do
    name=${file#Thresholds/}
    name=${name#*.}
    name=${name%.p90.json}
    names+=("$(printf '%s' "$name" | sed 's/[].[()*+?^$|\\]/\\&/g')")
done
filter="^($(IFS='|'; echo "${names[*]}"))\$"

echo "== allocation thresholds (${#names[@]} benchmarks)"
status=0
EXECKIT_BENCHMARK_QUICK=1 swift package benchmark thresholds check --no-progress --filter "$filter" || status=$?
case $status in
    0) echo "allocation thresholds: OK" ;;
    4) echo "allocation thresholds: OK, and some counts are LOWER than Thresholds/ says. Lower those files" \
        "(see Benchmarks/README.md, 'Updating thresholds') so the improvement is kept." ;;
    *) echo "allocation thresholds: REGRESSION (exit $status). A path allocates more than Thresholds/ allows." >&2
       exit "$status" ;;
esac
