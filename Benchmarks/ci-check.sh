#!/usr/bin/env bash
# Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
#
# CI step: build the benchmarks and check the allocation thresholds in Thresholds/. Malloc counts are deterministic,
# so each checked benchmark runs only a few samples (EXECKIT_BENCHMARK_QUICK=1); speed is never checked here.
# About 1.5 minutes from a clean Benchmarks/.build on 2 cores (measured 1m19s), most of it the first build.
#
# Exit status: 0 when every count equals its threshold (within Suite.allocationSlack per sample) or is lower (then it
# says so, to lower the file), non-zero on a build failure, a warning in the benchmark sources, or a count above its
# threshold.
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
# Guarantees: G-alloc-free-paths (the zero-allocation rows of Thresholds/)
# Guarantees: G-btq-cost (BoundedTaskQueue.enqueue.twoAtATime: five allocations an operation)
# Guarantees: G-virtual-call-site-cost (TestCoordinator.scheduleThenRun.10000-pending: recording call sites adds no
#   allocation per scheduling, only a constant)
names=()
for file in Thresholds/*.p90.json; do
    name=${file#Thresholds/}
    name=${name#*.}
    name=${name%.p90.json}
    names+=("$(printf '%s' "$name" | sed 's/[].[()*+?^$|\\]/\\&/g')")
done
filter="^($(IFS='|'; echo "${names[*]}"))\$"

echo "== allocation thresholds (${#names[@]} benchmarks)"
# `swift package` exits 1 for both "worse" and "better" (the tool's own codes 2 and 4 do not survive the plugin), so
# the verdict line decides.
status=0
EXECKIT_BENCHMARK_QUICK=1 swift package benchmark thresholds check --no-progress --filter "$filter" 2>&1 \
    | tee "$log" || status=$?
if grep -q "is WORSE than the defined thresholds" "$log"; then
    echo "allocation thresholds: REGRESSION. A path allocates more than Thresholds/ allows (table above)." >&2
    exit 1
elif grep -q "is BETTER than the defined thresholds" "$log"; then
    echo "allocation thresholds: OK, and some counts are LOWER than Thresholds/ says: lower those files" \
        "(Benchmarks/README.md, 'Updating thresholds') so the improvement is kept."
elif [ "$status" -ne 0 ] || ! grep -q "is EQUAL to the defined thresholds" "$log"; then
    echo "allocation thresholds: the check did not run (exit $status)." >&2
    exit 1
else
    echo "allocation thresholds: OK"
fi
