// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

// The examples of the article "Finding ordering bugs" (ExecTesting.docc/FindingOrderingBugs.md), verbatim: each wrong
// version fails under exploration, and its fix passes in every ordering.

/// Shows the results of the latest search. (Wrong: see below.)
final class SearchScreen: Sendable {
    private let main: Exec
    private let state = LockedBox("")

    init(main: Exec) { self.main = main }

    /// What the screen shows; read it on `main`.
    var shown: String { state.withLock { $0 } }

    func search(_ text: String, on worker: Exec) {
        worker.invoke {
            let results = "results for \(text)"
            self.main.invoke { self.state.withLock { $0 = results } }
        }
    }
}

/// Shows the results of the latest search, whatever order the workers finish in.
final class LatestSearchScreen: Sendable {
    private let main: Exec
    private let state = LockedBox((latest: 0, shown: ""))

    init(main: Exec) { self.main = main }

    var shown: String { state.withLock { $0.shown } }

    func search(_ text: String, on worker: Exec) {
        let number = state.withLock { state in
            state.latest += 1
            return state.latest
        }
        worker.invoke {
            let results = "results for \(text)"
            self.main.invoke {
                self.state.withLock { state in
                    if number == state.latest { state.shown = results }
                }
            }
        }
    }
}

/// Fetches from `server` and calls `completion` once, on `client`. (Wrong: see below.)
func fetch(
    from server: Exec, on client: Exec, timeout: Duration, answerAfter delay: Duration,
    completion: @escaping @Sendable (Int?) -> Void
) -> any Lifetime {
    let finished = LockedBox(false)
    server.invoke(after: delay) {
        finished.withLock { $0 = true }
        client.invoke { completion(42) }
    }
    return client.singleTimer(interval: timeout) {
        if !finished.withLock({ $0 }) {
            finished.withLock { $0 = true }
            completion(nil)
        }
    }
}

/// Fetches from `server` and calls `completion` exactly once, on `client`.
func fetchOnce(
    from server: Exec, on client: Exec, timeout: Duration, answerAfter delay: Duration,
    completion: @escaping @Sendable (Int?) -> Void
) -> any Lifetime {
    let finished = LockedBox(false)
    let finish: @Sendable (Int?) -> Void = { value in  // runs on `client` only
        if finished.withLock({ $0 }) { return }
        finished.withLock { $0 = true }
        completion(value)
    }
    server.invoke(after: delay) { client.invoke { finish(42) } }
    return client.singleTimer(interval: timeout) { finish(nil) }
}

/// The article's test, verbatim but for the name, which fails: exploration finds the order in which "ca"'s results
/// arrive last, and shrinks it to that one departure.
// Guarantees: G-explore-runs, G-explore-shrinks, G-explore-reports
@Test func theArticlesSearchTestFailsUnderExplorationWithOneDeparture() {
    let reports = LockedBox<[String]>([])
    let report = TestCoordinator.explore(.random, iterations: 100) { coordinator in
        let screen = SearchScreen(main: coordinator.main)
        screen.search("ca", on: coordinator.serialQueue(named: "worker 1"))
        screen.search("cat", on: coordinator.serialQueue(named: "worker 2"))
        coordinator.runUntilIdle()
        try #require(screen.shown == "results for cat")
    } reportFailure: { message in
        reports.withLock { $0.append(message) }
    }
    #expect(report.failure?.schedule == "1")
    #expect(report.failure?.departures.count == 1)
    let message = reports.withLock { $0.first ?? "" }
    #expect(message.contains("Expectation failed: (screen.shown → \"results for ca\") == \"results for cat\""))
    #expect(message.contains("block on \"worker 2\""))
}

@Test func theSearchScreenPassesInTheFixedOrder() {
    let coordinator = TestCoordinator()
    let screen = SearchScreen(main: coordinator.main)
    screen.search("ca", on: coordinator.serialQueue(named: "worker 1"))
    screen.search("cat", on: coordinator.serialQueue(named: "worker 2"))
    coordinator.runUntilIdle()
    #expect(screen.shown == "results for cat")
}

// Guarantees: G-explore-exhaustive, G-explore-example-figures
@Test func theFixedSearchScreenPassesEveryOrdering() {
    let report = TestCoordinator.explore(.exhaustive, iterations: 1_000) { coordinator in
        let screen = LatestSearchScreen(main: coordinator.main)
        screen.search("ca", on: coordinator.serialQueue(named: "worker 1"))
        screen.search("cat", on: coordinator.serialQueue(named: "worker 2"))
        coordinator.runUntilIdle()
        try #require(screen.shown == "results for cat")
    }
    #expect(report.coveredEveryOrdering)
    #expect(report.runs == 4, "the article gives the count")
}

/// Runs `fetch` with the answer and the time-out due at the same instant; returns what `completion` received.
func completions(
    of fetch: (Exec, Exec, Duration, Duration, @escaping @Sendable (Int?) -> Void) -> any Lifetime,
    _ coordinator: TestCoordinator
) -> [Int?] {
    let received = LockedBox<[Int?]>([])
    let lifetime = fetch(
        coordinator.serialQueue(named: "server"), coordinator.serialQueue(named: "client"), .seconds(1), .seconds(1)
    ) { value in received.withLock { $0.append(value) } }
    coordinator.advance(by: .seconds(2))
    withExtendedLifetime(lifetime) {}
    return received.withLock { $0 }
}

struct CompletedTwice: Error {}

// Guarantees: G-explore-runs
@Test func theFetchCompletesTwiceInAnOrderTheFixedOneHides() {
    let coordinator = TestCoordinator()
    #expect(completions(of: fetch, coordinator) == [42])
    let report = TestCoordinator.explore(.exhaustive, iterations: 100) { coordinator in
        if completions(of: fetch, coordinator).count != 1 { throw CompletedTwice() }
    } reportFailure: { _ in
    }
    #expect(report.failure != nil)
}

// Guarantees: G-explore-example-figures
@Test func fetchOnceCompletesOnceInEveryOrdering() {
    let report = TestCoordinator.explore(.exhaustive, iterations: 100) { coordinator in
        if completions(of: fetchOnce, coordinator).count != 1 { throw CompletedTwice() }
    }
    #expect(report.coveredEveryOrdering)
    #expect(report.runs == 3, "the article gives the count")
    #expect(report.failure == nil)
}
