// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch

/// The tasks of a coordinator left waiting although nothing is pending: started with `coordinator.task`, or inside a
/// `withTasksCaptured` call. Nothing the coordinator holds will ever wake them.
struct HungTasks {
    /// Where each unfinished `coordinator.task` was started.
    var launched: [RecordedCallSite?] = []
    /// Where each `withTasksCaptured` call some of whose tasks have not finished was made.
    var captured: [RecordedCallSite?] = []

    var isEmpty: Bool { launched.isEmpty && captured.isEmpty }

    /// What an exploration's hang and `assertNoPendingWork` say of them; `nil` when there are none.
    var message: String? {
        guard !isEmpty else { return nil }
        func site(_ origin: RecordedCallSite?) -> String { origin?.callSite.map { " at \($0)" } ?? "" }
        var parts: [String] = []
        if !launched.isEmpty {
            let count = launched.count
            parts.append(
                "\(count) task\(count == 1 ? "" : "s") started with coordinator.task never finished ("
                    + launched.map { "a task started" + site($0) }.joined(separator: "; ") + ")")
        }
        if !captured.isEmpty {
            parts.append(
                "a task started inside withTasksCaptured never finished ("
                    + captured.map { "the call" + site($0) }.joined(separator: "; ") + ")")
        }
        return "nothing is pending, and " + parts.joined(separator: ", and ")
            + ". A task waiting for a continuation that is never resumed, for a task that waits for it, or for work "
            + "outside the coordinator ends this way; cancel a task meant to outlive the run, and run the coordinator, "
            + "before the body returns"
    }
}

extension TestCoordinator {
    /// The tasks left waiting although nothing is pending, or none. A task still in flight outside the coordinator (on
    /// an actor of Swift's, on `MainActor`, in a real `Task.sleep`, or moved to a real executor by a discard) finishes
    /// or brings work back soon: such tasks get up to 0.2 s of real time to do so before they count as hung. A
    /// coordinator with no such task pays nothing for it.
    func hungTasks() -> HungTasks {
        func current() -> HungTasks {
            storage.isIdle
                ? HungTasks(launched: launchedTasks.unfinished, captured: launchedTasks.unfinishedCaptures)
                : HungTasks()
        }
        var hung = current()
        guard !hung.isEmpty else { return hung }
        let pause = DispatchSemaphore(value: 0)  // never signalled: each wait is a 1 ms pause
        var waited = 0
        while !hung.isEmpty && waited < 200 {
            _ = pause.wait(timeout: .now() + .milliseconds(1))
            waited += 1
            hung = current()
        }
        return hung
    }
}
