#!/usr/bin/env bash
# Mallocs per operation, from callgrind runs at N and 2N, differenced: the number of calls into glibc's `malloc`, on
# every thread. Deterministic where the benchmark harness's process-wide malloc count is not: valgrind runs one thread
# at a time, so libdispatch's per-thread continuation caches are reused the same way in every run (the harness's count
# for the firing row moved between 1.01 and 1.54 per timer from run to run; this one reads 1.001 every time).
#
# Usage: Benchmarks/InstructionCounts/mallocs.sh OPERATION CONTEXT [N]   (N defaults to 2000; see main.swift)
# Needs valgrind; builds the driver in release mode first.
set -euo pipefail
cd "$(dirname "$0")"
operation=$1 context=$2 n=${3:-2000}
# check.sh builds once and names the binary: a build check per count would cost it about 1.5 s each, 2 minutes in all.
if [ -z "${INSTRUCTION_COUNTS_BINARY:-}" ]; then
    swift build -c release --product InstructionCounts >/dev/null
fi
binary="${INSTRUCTION_COUNTS_BINARY:-$(swift build -c release --show-bin-path)/InstructionCounts}"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
for size in "$n" $((2 * n)); do
    valgrind --tool=callgrind --callgrind-out-file="$dir/out.$size" "$binary" "$operation" "$context" "$size" \
        >/dev/null 2>&1
done
python3 - "$dir/out.$n" "$dir/out.$((2 * n))" "$n" <<'PYTHON'
import re, subprocess, sys

def malloc_calls(path):
    """The calls into malloc that callgrind recorded, summed over its callers."""
    lines = subprocess.run(["callgrind_annotate", "--tree=caller", "--threshold=100", path],
                           capture_output=True, text=True, check=True).stdout.splitlines()
    total = 0
    for index, line in enumerate(lines):
        if re.search(r"\*\s+\S*malloc\.c:malloc \[", line):
            caller = index - 1
            while caller >= 0 and "<" in lines[caller]:
                match = re.search(r"\((\d[\d,]*)x\)", lines[caller])
                if match:
                    total += int(match.group(1).replace(",", ""))
                caller -= 1
    return total

first, second, n = malloc_calls(sys.argv[1]), malloc_calls(sys.argv[2]), int(sys.argv[3])
if first == 0 or second == 0:
    sys.exit("mallocs.sh: callgrind recorded no malloc calls; run the driver by hand")
print(f"{(second - first) / n:.3f}")
PYTHON
