// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

// The examples of ExecTesting's DocC catalog (ExecTesting.md and TestingWithVirtualTime.md), verbatim, with the code
// under test they assume, so that they keep compiling and passing.

@Test func theSessionExpiresAfterHalfAnHourOfSilence() {
    let coordinator = TestCoordinator()
    let session = Session(context: coordinator.main, timeout: .seconds(1_800))
    coordinator.advance(by: .seconds(1_799))
    #expect(session.isOpen)
    coordinator.advance(by: .seconds(1))
    #expect(!session.isOpen)
    coordinator.assertNoPendingWork { Issue.record(Comment(rawValue: $0)) }
}

@Test func theReminderFiresAfterAnHour() {
    let coordinator = TestCoordinator()
    let reminder = Reminder(launcher: coordinator, clock: coordinator.clock)
    reminder.start(after: .seconds(3_600))
    coordinator.advance(by: .seconds(3_599))
    #expect(!reminder.hasFired)
    coordinator.advance(by: .seconds(1))
    #expect(reminder.hasFired)
    #expect(coordinator.isIdle)
}

// Guarantees: G-virtual-actor-on-queue
@Test func theStoreKeepsWhatTheSyncAdds() {
    let coordinator = TestCoordinator()
    let store = Store(queue: coordinator.serialQueue(named: "store"))
    let added = LockedBox(0)
    coordinator.task {
        await store.add("a")
        let count = await store.items.count
        added.withLock { $0 = count }
    }
    coordinator.runUntilIdle()
    #expect(added.withLock { $0 } == 1)
}

actor Store {
    private let queue: Exec
    nonisolated var unownedExecutor: UnownedSerialExecutor { queue.unownedSerialExecutor }
    private(set) var items: [String] = []
    init(queue: Exec) { self.queue = queue }
    func add(_ item: String) { items.append(item) }
}

// Guarantees: G-virtual-mainactor-recipe
@Test @MainActor func searchesOnceTheUserStopsTyping() {
    let coordinator = TestCoordinator()
    let model = SearchViewModel(context: coordinator.main)
    model.type("swift")
    coordinator.advance(by: .milliseconds(300))
    #expect(model.results == ["results for swift"])
}

@MainActor final class SearchViewModel {
    private(set) var results: [String] = []
    private let context: Exec
    private var debounce: (any Lifetime)?

    init(context: Exec = .main) { self.context = context }

    func type(_ query: String) {
        debounce = context.singleTimer(interval: .milliseconds(300)) { [weak self] in
            MainActor.assumeIsolated { self?.results = ["results for \(query)"] }
        }
    }
}

// Guarantees: G-virtual-override-redirects
@Test func pollsEveryTenSeconds() {
    let coordinator = TestCoordinator()
    coordinator.overridingSharedContexts {
        let poller = Poller()  // uses Exec.utility.periodicTimer and Exec.main.invoke inside
        poller.start()
        coordinator.advance(by: .seconds(3_600))
        #expect(poller.polls == 360)
        poller.stop()
    }
    coordinator.assertNoPendingWork { Issue.record(Comment(rawValue: $0)) }
}

/// Polls every 10 s on a global queue and counts on the main queue, hard-wired to `Exec.utility` and `Exec.main`.
private final class Poller: Sendable {
    private let count = LockedBox(0)
    private let timer = LockedBox<(any Lifetime)?>(nil)

    var polls: Int { count.withLock { $0 } }

    func start() {
        let lifetime = Exec.utility.periodicTimer(interval: .seconds(10)) { [count] in
            Exec.main.invoke { count.withLock { $0 += 1 } }
        }
        timer.withLock { $0 = lifetime }
    }

    func stop() { timer.withLock { $0?.cancel() } }
}

/// A session that closes itself after `timeout`, in `context`.
final class Session: Sendable {
    private let open = LockedBox(true)
    private let timer = LockedBox<(any Lifetime)?>(nil)

    init(context: Exec, timeout: Duration) {
        let expiry = context.singleTimer(interval: timeout) { [open] in open.withLock { $0 = false } }
        timer.withLock { $0 = expiry }
    }

    var isOpen: Bool { open.withLock { $0 } }
}

private final class Reminder: Sendable {
    private let launcher: any TaskLauncher
    private let clock: any Clock<Duration>
    private let fired = LockedBox(false)

    init(launcher: any TaskLauncher = Exec.utility, clock: any Clock<Duration> = ContinuousClock()) {
        self.launcher = launcher
        self.clock = clock
    }

    var hasFired: Bool { fired.withLock { $0 } }

    func start(after delay: Duration) {
        launcher.task { [clock, fired] in
            try await clock.sleep(for: delay)
            fired.withLock { $0 = true }
        }
    }
}
