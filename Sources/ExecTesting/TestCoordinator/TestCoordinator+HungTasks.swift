// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecDispatch

/// The tasks of a coordinator left waiting although nothing is pending: started with `coordinator.task`, or inside a
/// `withTasksCaptured` call. Nothing the coordinator holds will ever wake them.
struct HungTasks {
    /// Where each unfinished `coordinator.task` was started.
    var launched: [RecordedCallSite?] = []
    /// Each `withTasksCaptured` call some of whose tasks have not finished: where it was made, and its grace.
    var captured: [(callSite: PendingWork.CallSite, grace: Duration)] = []

    var isEmpty: Bool { launched.isEmpty && captured.isEmpty }

    /// The grace of a `coordinator.task`: the real time it may stay out of the coordinator before it counts as hung.
    static let launchedGrace = Duration.milliseconds(200)

    /// How long these tasks may stay out of the coordinator, in real time, before they count as hung: the longest
    /// grace among them.
    var grace: Duration {
        captured.map(\.grace).reduce(launched.isEmpty ? .zero : Self.launchedGrace) { max($0, $1) }
    }

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
                    + captured.map { "the call at \($0.callSite), waited for \(Self.spoken($0.grace))" }
                    .joined(separator: "; ") + ")")
        }
        return "nothing is pending, and " + parts.joined(separator: ", and ")
            + ". A task waiting for a continuation that is never resumed, for a task that waits for it, or for work "
            + "outside the coordinator ends this way; cancel a task meant to outlive the run, and run the coordinator, "
            + "before the body returns"
            + (captured.isEmpty
                ? ""
                : ". A real Task.sleep or a real queue's callback keeps a task out of the coordinator for real: put "
                    + "the sleep on coordinator.clock, or give withTasksCaptured a longer hangGrace")
    }

    /// A grace in seconds, as pending-work descriptions spell times: "0.2 s", "1.5 s".
    private static func spoken(_ grace: Duration) -> String {
        "\(Double(grace.saturatingNanoseconds) / 1_000_000_000) s"
    }
}

extension TestCoordinator {
    /// The tasks left waiting although nothing is pending, or none. A task still in flight outside the coordinator (on
    /// an actor of Swift's, on `MainActor`, in a real `Task.sleep`, or moved to a real executor by a discard) finishes
    /// or brings work back soon: such tasks get their grace of real time to do so (0.2 s for a `coordinator.task`, a
    /// `withTasksCaptured` call's `hangGrace` for its tasks) before they count as hung. A coordinator with no such task
    /// pays nothing for it.
    func hungTasks() -> HungTasks {
        func current() -> HungTasks {
            storage.isIdle
                ? HungTasks(launched: launchedTasks.unfinished, captured: launchedTasks.unfinishedCaptures)
                : HungTasks()
        }
        var hung = current()
        guard !hung.isEmpty else { return hung }
        let clock = ContinuousClock()
        let start = clock.now
        let pause = DispatchSemaphore(value: 0)  // never signalled: each wait is a 1 ms pause
        while !hung.isEmpty && clock.now - start < hung.grace {
            _ = pause.wait(timeout: .now() + .milliseconds(1))
            hung = current()
        }
        return hung
    }
}
