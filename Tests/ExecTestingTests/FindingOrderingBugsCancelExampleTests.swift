// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

// The article's "A cancel racing a firing" (ExecTesting.docc/FindingOrderingBugs.md), verbatim: the wrong version
// fails under exploration, and its fix passes in every ordering.

/// Polls a price every second on `poll` and shows it on `ui`, until stopped. (Wrong: see below.)
final class PricePoller: Sendable {
    private let timer = LockedBox<(any Lifetime)?>(nil)

    init(poll: Exec, ui: Exec, show: @escaping @Sendable (Int) -> Void) {
        let polls = LockedBox(0)
        let timer = poll.periodicTimer(interval: .seconds(1)) {
            let price = polls.withLock { polls in
                polls += 1
                return polls
            }
            ui.invoke { show(price) }
        }
        self.timer.withLock { $0 = timer }
    }

    /// Stops polling; call it on `ui`.
    func stop() { timer.withLock { $0?.cancel() } }
}

/// Polls a price every second on `poll` and shows it on `ui`; once `stop()` has returned, nothing more is shown.
final class StoppablePricePoller: Sendable {
    private let timer = LockedBox<(any Lifetime)?>(nil)
    private let stopped = LockedBox(false)  // read and written on `ui` only

    init(poll: Exec, ui: Exec, show: @escaping @Sendable (Int) -> Void) {
        let polls = LockedBox(0)
        let timer = poll.periodicTimer(interval: .seconds(1)) { [weak self] in
            guard let self else { return }
            let price = polls.withLock { polls in
                polls += 1
                return polls
            }
            ui.invoke {
                if !self.stopped.withLock({ $0 }) { show(price) }  // decided on `ui`, where `stop()` runs
            }
        }
        self.timer.withLock { $0 = timer }
    }

    /// Stops polling; call it on `ui`.
    func stop() {
        stopped.withLock { $0 = true }
        timer.withLock { $0?.cancel() }
    }
}

/// The article's test, verbatim but for the name and `reportFailure`, which fails: exploration finds the firing at
/// 2 s that runs before the stop, and shrinks the run to that one departure.
// Guarantees: G-explore-runs, G-explore-shrinks
@Test func theArticlesPollerTestFailsUnderExploration() throws {
    let coordinator = TestCoordinator()
    #expect(
        pricesShown(by: { PricePoller(poll: $0, ui: $1, show: $2).stop }, coordinator) == ["price 1", "stopped"],
        "the fixed order hides it")

    let report = TestCoordinator.explore(.random, iterations: 1_000) { coordinator in
        let ui = coordinator.serialQueue(named: "ui")
        let shown = LockedBox<[String]>([])
        let poller = PricePoller(poll: coordinator.serialQueue(named: "poll"), ui: ui) { price in
            shown.withLock { $0.append("price \(price)") }
        }
        ui.invoke(after: .seconds(2)) {
            poller.stop()
            shown.withLock { $0.append("stopped") }
        }
        coordinator.advance(by: .seconds(3))
        try #require(shown.withLock { $0.last } == "stopped")
    } reportFailure: { _ in
    }
    let failure = try #require(report.failure)
    #expect(failure.schedule == "1")
    #expect(failure.departures.count == 1)
    #expect(failure.departures.first?.contains("periodic timer (every 1.0 seconds) on \"poll\", due at 2.0 s") == true)
    #expect(failure.departures.first?.contains("fired before timer on \"ui\", due at 2.0 s") == true)
}

// Guarantees: G-explore-exhaustive, G-explore-example-figures
@Test func theStoppablePollerShowsNothingAfterStopInEveryOrdering() {
    let report = TestCoordinator.explore(.exhaustive, iterations: 1_000) { coordinator in
        if pricesShown(by: { StoppablePricePoller(poll: $0, ui: $1, show: $2).stop }, coordinator).last != "stopped" {
            throw ShownAfterStop()
        }
    }
    #expect(report.coveredEveryOrdering)
    #expect(report.runs == 3, "the article gives the count")
}

struct ShownAfterStop: Error {}

/// The article's test as a function: makes a poller (returning its `stop`), stops it on "ui" at 2 s, runs for 3 s,
/// and returns what was shown.
func pricesShown(
    by startPoller: (Exec, Exec, @escaping @Sendable (Int) -> Void) -> @Sendable () -> Void,
    _ coordinator: TestCoordinator
) -> [String] {
    let ui = coordinator.serialQueue(named: "ui")
    let shown = LockedBox<[String]>([])
    let stop = startPoller(coordinator.serialQueue(named: "poll"), ui) { price in
        shown.withLock { $0.append("price \(price)") }
    }
    ui.invoke(after: .seconds(2)) {
        stop()
        shown.withLock { $0.append("stopped") }
    }
    coordinator.advance(by: .seconds(3))
    return shown.withLock { $0 }
}
