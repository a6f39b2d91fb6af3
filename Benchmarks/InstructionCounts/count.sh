#!/usr/bin/env bash
# Instructions per operation, from callgrind runs at N and 2N, differenced (start-up and tear-down cancel out).
#
# Usage: Benchmarks/InstructionCounts/count.sh OPERATION CONTEXT [N [SIZE]]   (N defaults to 20000; SIZE is the
#   number of timers pending or observers for the scaling operations, see main.swift)
#   THREAD1_ONLY=1 counts only the calling thread (for invokeAsync, whose worker threads' counts are noisy).
# Needs valgrind; builds the driver in release mode first. See main.swift for operations and contexts.
set -euo pipefail
cd "$(dirname "$0")"
operation=$1 context=$2 n=${3:-20000} size=${4:-}
# check.sh builds once and names the binary: a build check per count would cost it about 1.5 s each, 2 minutes in all.
if [ -z "${INSTRUCTION_COUNTS_BINARY:-}" ]; then
    swift build -c release --product InstructionCounts >/dev/null
fi
binary="${INSTRUCTION_COUNTS_BINARY:-$(swift build -c release --show-bin-path)/InstructionCounts}"
count() {
    local dir separate=no; dir=$(mktemp -d)
    [ -n "${THREAD1_ONLY:-}" ] && separate=yes
    valgrind --tool=callgrind --separate-threads="$separate" \
        --callgrind-out-file="$dir/out" "$binary" "$operation" "$context" "$1" $size >/dev/null 2>&1
    local file="$dir/out"; [ -n "${THREAD1_ONLY:-}" ] && file="$dir/out-01"
    awk '/^(summary|totals):/ {print $2; exit}' "$file"
    rm -rf "$dir"
}
first=$(count "$n"); second=$(count $((2 * n)))
if [ -z "$first" ] || [ -z "$second" ]; then
    echo "count.sh: valgrind gave no instruction count for $operation $context (N = $n); run the driver by hand" >&2
    exit 1
fi
python3 -c "print(f'{($second - $first) / $n:.1f}')"
