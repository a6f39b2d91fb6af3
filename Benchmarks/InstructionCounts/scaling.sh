#!/usr/bin/env bash
# The scaling curves, in instructions (count.sh): the cost of a one-shot timer schedule+cancel against the number of
# timers already pending, and the cost of a post against the number of observers, each beside its peer measured the
# same way. Prints a Markdown table that chart.py draws (`chart.py --scaling`). Not run by CI: about four minutes.
#
# Usage: Benchmarks/InstructionCounts/scaling.sh | tee scaling.md
#        python3 Benchmarks/InstructionCounts/chart.py --scaling < scaling.md > Benchmarks/scaling.svg
set -euo pipefail
cd "$(dirname "$0")"
swift build -c release --product InstructionCounts >/dev/null

echo "| curve | size | ExecKit (instructions per op) | peer | ratio |"
echo "|---|---|---|---|---|"
# Timers on .direct (the engine of the .default queue) at random deadlines one to two hours away, counted on the
# calling thread: with 100,000 sources pending, the all-thread difference of the peer once came out negative, as
# Dispatch's manager thread did a different amount of work in the N and 2N runs. The raw sources stop at 100,000: a
# million of them would hold about 500 MB, several times that under valgrind.
for pending in 1000 10000 100000 1000000; do
    mine=$(THREAD1_ONLY=1 ./count.sh timerPending direct 5000 "$pending")
    theirs="-" ratio="-"
    if [ "$pending" -le 100000 ]; then
        theirs=$(THREAD1_ONLY=1 ./count.sh rawTimerPending direct 2000 "$pending")
        ratio=$(python3 -c "print(f'{$mine / $theirs:.3f}x')")
    fi
    echo "| timer schedule+cancel, by timers pending | $pending | $mine | $theirs | $ratio |"
done
# Posts to .direct observers, each adding to a counter; N shrinks as the observers grow, to keep each run short.
for observers in 1 10 100 1000; do
    n=$((20000 / observers)); [ "$n" -lt 200 ] && n=200
    mine=$(./count.sh hubPostObservers direct "$n" "$observers")
    theirs=$(./count.sh notificationCenterPostObservers direct "$n" "$observers")
    ratio=$(python3 -c "print(f'{$mine / $theirs:.3f}x')")
    echo "| post, by observers | $observers | $mine | $theirs | $ratio |"
done
