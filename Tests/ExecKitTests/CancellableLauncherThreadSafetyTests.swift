// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Synchronization
import Testing

/// `CancellableLauncher` may be used from any thread: `task(priority:_:)` and `cancelAll()` called from several threads
/// at once start every task exactly once, and each `cancelAll()` cancels every task started before it (here: every
/// task its own thread started earlier, none of which can finish uncancelled).
@Suite struct CancellableLauncherThreadSafetyTests {
    // Guarantees: G-task-cancellable-thread-safety
    @Test func tasksStartedAndCancelledFromManyThreadsRunOnceAndAreAllCancelled() {
        // Small under the Thread Sanitizer, where every access costs several times more.
        let threads = isThreadSanitizerActive ? 4 : 8
        let tasksPerThread = isThreadSanitizerActive ? 24 : 60
        let cancelEvery = 3
        let total = threads * tasksPerThread
        for round in 0..<(isThreadSanitizerActive ? 2 : 5) {
            let launcher = CancellableLauncher(Exec.utility)
            let runs = AtomicCounters(count: total)
            let cancelledWhenDone = AtomicCounters(count: total)
            let finished = DispatchSemaphore(value: 0)
            let missedCancellations = Atomic(0)
            let allReturned = runOnThreads(threads) { thread in
                var mine: [Task<Void, Never>] = []
                for index in 0..<tasksPerThread {
                    let id = thread * tasksPerThread + index
                    let priority: TaskPriority? = index.isMultiple(of: 2) ? nil : .low
                    mine.append(
                        launcher.task(priority: priority) {
                            _ = runs.increment(id)
                            // Ends only when cancelled; the bound is far beyond the test's own wait below.
                            try? await Task.sleep(for: .seconds(120))
                            if Task.isCancelled { _ = cancelledWhenDone.increment(id) }
                            finished.signal()
                        })
                    if index % cancelEvery == cancelEvery - 1 || index == tasksPerThread - 1 {
                        launcher.cancelAll()
                        // Every task this thread started so far was started before that cancelAll() returned.
                        let missed = mine.count(where: { !$0.isCancelled })
                        missedCancellations.add(missed, ordering: .relaxed)
                    }
                }
            }
            #expect(allReturned, "round \(round): a thread did not finish")
            #expect(missedCancellations.load(ordering: .relaxed) == 0, "round \(round): tasks left uncancelled")
            let deadline = DispatchTime.now() + 30
            var endedInTime = 0
            while endedInTime < total, finished.wait(timeout: deadline) == .success { endedInTime += 1 }
            #expect(endedInTime == total, "round \(round): tasks still running after every cancelAll()")
            #expect((0..<total).allSatisfy { runs.value($0) == 1 }, "round \(round): a task did not run exactly once")
            #expect((0..<total).allSatisfy { cancelledWhenDone.value($0) == 1 }, "round \(round): uncancelled task")
        }
    }
}
