#!/usr/bin/env bash
# CI's check of the key rows in instructions, which hold still between runs where wall-clock ratios do not: each row's
# instructions per operation against its peer's, measured in the same run with count.sh, must stay within a ratio.
# A change that makes a row slower fails with a message naming the row. Prints the table as Markdown. Then the rows
# whose allocations the harness cannot hold steady, as malloc calls per operation (mallocs.sh).
#
# Usage: Benchmarks/InstructionCounts/check.sh      (installs valgrind with apt-get when it is missing)
#
# The limits sit just above the ratios measured on 2026-11-23 (see Benchmarks/README.md); they are guards against
# regressions, not the issue's goals, which the README's table states beside them. Synchronous rows repeat to the
# instruction. The timer row counts the calling thread, where all of ExecKit's work happens and most of the
# DispatchSource's (its cancellation finishes on Dispatch's threads, so only the peer is undercounted). The
# asynchronous row is measured twice. On the calling thread alone it repeats to the instruction; its limit is about
# the issue's goal (1.0x), leaving room for a worker woken or not on another machine. On all threads, libdispatch's
# workers park and wake differently from run to run (1.27x on one machine, 0.93x on another, on the same commit), so
# that row takes the median of three runs of each side and a loose limit that only a real regression crosses.
set -euo pipefail
cd "$(dirname "$0")"

if ! command -v valgrind >/dev/null 2>&1; then
    echo "== installing valgrind (for instruction counts)"
    if command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq && apt-get install -y -qq valgrind >/dev/null
    else
        echo "error: valgrind is missing and apt-get is not available to install it" >&2
        exit 1
    fi
fi
swift build -c release --product InstructionCounts >/dev/null
INSTRUCTION_COUNTS_BINARY="$(swift build -c release --show-bin-path)/InstructionCounts"
export INSTRUCTION_COUNTS_BINARY

# row | ExecKit operation and context | peer operation and context | largest ratio allowed | how to count
#   how to count: empty (once, all threads), "caller" (the calling thread only), "median" (median of three, all threads)
# Guarantees: G-direct-cost-call (the two .direct rows), G-hub-post-cost (the NotificationHub rows)
# Guarantees: G-dispatch-main-cost (.main's row), G-mutex-sync-cost (the PThreadMutex row)
# Guarantees: G-timer-schedule-cost (the schedule+cancel rows, with Thresholds/'s one allocation)
# Guarantees: G-hub-name-cost (the long name's row), G-hub-post-scales-with-matching (the other names' row)
# Guarantees: G-dispatch-iscurrent-cost (the isCurrent row), G-virtual-override-cost (the two rows after an override)
# Guarantees: G-virtual-cost-log-n (the two TestCoordinator rows)
# Guarantees: G-invokesync-queue-cost (the syncQueue().invokeSync row), G-mutexcontext-cost (the MutexContext row)
# Guarantees: G-main-onmainactor-cost (the onMainActor row), G-iscurrent-cost (the two Exec.isCurrent rows)
# Guarantees: G-main-ordered-cost (the two .mainOrdered rows), G-timer-invoke-after-cost (the invoke(after:) row)
# Guarantees: G-virtual-call-site-cost (the two call-site rows, and their malloc rows below)
# Guarantees: G-task-main-default-actors-off-main (the two Exec.main.task rows: as cheap as Task { @MainActor in })
rows=(
    ".direct.invoke(_:with:), closure literal|invokeWithLiteral direct|callWithValue direct|1.5"
    "switch on .direct, then invoke(_:with:)|switchWithValue direct|callWithValue direct|1.8"
    ".main.invoke(_:with:) on the main queue|invokeWithLiteral main|callWithValue direct|5.0"
    "PThreadMutex.sync, uncontended|mutexSync direct|rawMutex direct|1.15"
    "syncQueue().invokeSync|invokeSync syncQueue|dispatchSync direct|1.3"
    "Exec.direct.serialized().invokeSync (a MutexContext)|invokeSync serialized|dispatchSync direct|0.65"
    ".utility.invoke, calling thread|invokeAll utility|dispatchAsync direct|1.0|caller"
    ".utility.invoke, all threads (median of 3)|invokeAll utility|dispatchAsync direct|1.5|median"
    "one-shot timer schedule+cancel, calling thread|timerScheduleCancel direct|rawTimer direct|0.3|caller"
    "one-shot timers firing on .utility, all threads (median of 3)|timerFire utility|rawTimerFire direct|0.5|median"
    "timer schedule+cancel on a private queue, against .utility's|timerScheduleCancel asyncQueue|timerScheduleCancel utility|1.05|caller"
    "NotificationHub.post, 1 .direct observer|hubPost direct|notificationCenterPost direct|0.04"
    "NotificationHub.post, 100 .direct observers|hubPost100 direct|notificationCenterPost100 direct|0.06"
    "NotificationHub.post with a 10,000-character name, against a short one|hubPostLongName direct|hubPost direct|1.01"
    "NotificationHub.post beside 1,000 observers of other names, against none|hubPostAmongOthers direct|hubPost direct|1.1"
    "DispatchQueue.isCurrent, against two getSpecific calls|queueIsCurrent direct|getSpecificTwice direct|0.75"
    ".direct.invoke once an override has been installed, against never|invokeWithLiteral directAfterOverride|invokeWithLiteral direct|1.0"
    ".main.invoke on the main queue once an override has been installed|invokeWithLiteral mainAfterOverride|invokeWithLiteral main|1.0"
    "TestCoordinator block scheduled and run, 100,000 timers pending against 100|coordinatorPending direct 5000 100000|coordinatorPending direct 5000 100|1.4"
    "TestCoordinator periodic firing, against a block through a plain binary heap|coordinatorPeriodic direct|binaryHeap direct|0.43"
    "Exec.onMainActor handler called on the main queue, against .main.invoke(_:with:)|onMainActor main|invokeWithLiteral main|23.5"
    "Exec.isCurrent on .main (thread 1), against .direct's constant|isCurrent main|isCurrent direct|2.0"
    "Exec.isCurrent on a syncQueue() from outside, against DispatchQueue.isCurrent|isCurrent syncQueue|queueIsCurrent direct|1.2"
    ".mainOrdered.invoke on the main queue (immediate), against .main's|invokeClosure mainOrdered|invokeClosure main|2.3"
    ".mainOrdered.invoke(_:with:) off the main queue (queued), against .main's|invokeWithLiteral mainOrderedElsewhere|invokeWithLiteral mainElsewhere|1.0"
    "invoke(after:) an hour ahead on .utility (asyncAfter), against a self-keeping timer|invokeAfter utility|invokeAfter forwardedUtility|2.0|caller"
    "TestCoordinator block with its call site, along a path seen before, against call sites off|callSitesOnePath direct 1000|callSitesOff direct 1000|1.6"
    "TestCoordinator block with its call site, along a new path each time, against call sites off|callSitesNewPaths direct 1000|callSitesOff direct 1000|2.9"
    "TestCoordinator.explore(.random), a run of 10 blocks on two queues, against the fixed order|explore direct 200 10|explorePlain direct 200 10|1.5"
    "TestCoordinator.explore(.pct), a run of 10 blocks on two queues, against the fixed order|explorePCT direct 200 10|explorePlain direct 200 10|1.5"
    "TestCoordinator.explore(.random), a run of 1,000 blocks on two queues, against the fixed order|explore direct 20 1000|explorePlain direct 20 1000|2.0"
    "TestCoordinator.explore(.pct), a run of 1,000 blocks on two queues, against the fixed order|explorePCT direct 20 1000|explorePlain direct 20 1000|2.0"
    "a plain Task {} started and awaited inside withTasksCaptured, against one on the coordinator's task executor (issue #41)|capturedTaskStart direct 2000|coordinatorTaskStart direct 2000|2.0"
    "Exec.main.task started and awaited, against Task { @MainActor in } (issue #40: 1.56x before)|launcherTaskStart mainDispatched 5000|mainActorTaskStart mainDispatched 5000|1.15"
    "a default actor called from an Exec.main task, against from Task { @MainActor in } (issue #40: 1.56x before)|launcherDefaultActorCall mainDispatched 5000|mainActorDefaultActorCall mainDispatched 5000|1.1"
)

# Instructions per operation of one side of a row, counted as the row's last field says. (The two main-queue task rows
# count 5,000 operations, not 20,000: each takes a main-queue round trip, 15 s a side under valgrind at 20,000.)
measure() {
    local how=$1; shift
    case "$how" in
    caller) THREAD1_ONLY=1 ./count.sh "$@" ;;
    median)
        local runs=()
        local value
        for _ in 1 2 3; do
            value=$(./count.sh "$@")  # an assignment, so that a failing count.sh stops the script (set -e)
            runs+=("$value")
        done
        python3 -c "import statistics, sys; print(statistics.median(float(x) for x in sys.argv[1:]))" "${runs[@]}"
        ;;
    *) ./count.sh "$@" ;;
    esac
}

failures=()
echo "| row | ExecKit (instructions per op) | peer | ratio | limit |"
echo "|---|---|---|---|---|"
for row in "${rows[@]}"; do
    IFS='|' read -r name ours peer limit how <<<"$row"
    # shellcheck disable=SC2086  # "operation context" splits into the two arguments on purpose
    mine=$(measure "$how" $ours)
    # shellcheck disable=SC2086
    theirs=$(measure "$how" $peer)
    ratio=$(python3 -c "print(f'{$mine / $theirs:.2f}')")
    verdict=$(python3 -c "print('ok' if $mine / $theirs <= $limit else 'FAIL')")
    echo "| $name | $mine | $theirs | ${ratio}x | <= ${limit}x $verdict |"
    if [ "$verdict" = FAIL ]; then
        failures+=("$name: ${ratio}x its peer (${mine} against ${theirs} instructions), limit ${limit}x")
    fi
done

# Allocations that the harness cannot count steadily (libdispatch's own continuation allocations move its
# process-wide count from run to run), counted as malloc calls under callgrind (mallocs.sh), which repeat.
# row | operation and context | largest mallocs per operation allowed
# Guarantees: G-task-job-allocations (no box per job on .default's executor)
# Guarantees: G-perform-no-closure-alloc (perform's row), G-virtual-task-executor-cost (the TestCoordinator's row)
# Guarantees: G-stq-cost (the SerialTaskQueue row), G-stq-cancelall-cost (cancelAll's row)
# Guarantees: G-task-cancellable-cost (the CancellableLauncher row), G-task-launcher-nonthrowing-cost (the default's)
# Guarantees: G-invokesync-queue-cost (invokeSync's row), G-timer-invoke-after-cost, G-custom-invoke-after-cost
# Guarantees: G-group-invoke-cost, G-group-invokeasync-cost (the group rows), G-once-cost (OnceCompletion's row)
# Guarantees: G-virtual-serial-queue-cost (the serialQueue(named:) row)
malloc_rows=(
    "one-shot timers firing on .utility (issue #21: the timer itself, nothing per firing)|timerFire utility|1.05"
    "a task on .default's executor, started and awaited (issue #27: the task and its first slab, no box per job)|taskStart default|2.05"
    "SerialTaskQueue operation on .default (issue #27: task, slab, the operation's closure and the queue's one)|serialTaskQueue default|4.05"
    "perform on .utility with a capturing closure literal (the hop's block and the caller's resumption; not the literal)|perform utility|3.05"
    "a task on a TestCoordinator's executor, started and awaited (task, slab, two jobs of three allocations)|coordinatorTaskStart direct|8.05"
    "SerialTaskQueue.cancelAll with 10 unfinished operations (the copy of their tasks)|serialTaskQueueCancelAll direct|1.05"
    "a task through a CancellableLauncher around .default, started and awaited (.default's 2, and 2)|cancellableTaskStart default|4.05"
    "a task through a launcher with only the throwing form, around .default (the default's second task)|throwingOnlyTaskStart default|8.05"
    "syncQueue().invokeSync (withoutActuallyEscaping's context)|invokeSync syncQueue|1.05"
    "invoke(after:) on .utility (one asyncAfter)|invokeAfter utility|1.05"
    "invoke(after:) by the protocol's default, around .utility (the timer's 1, the keeper and the closure)|invokeAfter forwardedUtility|3.05"
    "invoke(group:) on a MutexContext (invoke's 0, and the closure that leaves the group)|invokeGroup serialized|1.05"
    "invokeAsync(group:) on .utility (invokeAsync's 1, and the closure that leaves the group)|invokeAsyncGroup utility|2.05"
    "OnceCompletion without timeout, made and completed on .direct|onceCompletion direct|8.05"
    "TestCoordinator.serialQueue(named:), made and dropped|coordinatorSerialQueue direct|10.05"
    "TestCoordinator call site along a path seen before (none)|callSitesOnePath direct 1000|0.05"
    "TestCoordinator call site along a new path (its addresses, its entry and the site)|callSitesNewPaths direct 1000|9.05"
)
echo
echo "| row | mallocs per op | limit |"
echo "|---|---|---|"
for row in "${malloc_rows[@]}"; do
    IFS='|' read -r name operation limit <<<"$row"
    # shellcheck disable=SC2086  # "operation context" splits into the two arguments on purpose
    count=$(./mallocs.sh $operation)
    verdict=$(python3 -c "print('ok' if $count <= $limit else 'FAIL')")
    echo "| $name | $count | <= $limit $verdict |"
    if [ "$verdict" = FAIL ]; then
        failures+=("$name: $count mallocs per operation, limit $limit")
    fi
done

if [ ${#failures[@]} -gt 0 ]; then
    for failure in "${failures[@]}"; do echo "error: over the limit: $failure" >&2; done
    exit 1
fi
