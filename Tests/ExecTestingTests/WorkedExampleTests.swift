// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// Worked examples: code written against ExecKit's real types, tested with a coordinator. Each covers an hour of
/// virtual time and runs in milliseconds.
@Suite struct WorkedExampleTests {
    // MARK: A debounce written with Exec timers

    @Test func aDebounceFiresOnceAfterEachBurstOfCalls() {
        let coordinator = TestCoordinator()
        let fired = EventLog()
        let debouncer = Debouncer(interval: .milliseconds(300), context: coordinator.main) {
            fired.append("\(coordinator.seconds)")
        }
        // Every ten minutes for an hour, a burst of five calls 100 ms apart.
        let start = coordinator.now
        for burst in 0..<6 {
            coordinator.advance(to: start + .seconds(burst * 600))
            for _ in 0..<5 {
                debouncer.call()
                coordinator.advance(by: .milliseconds(100))
            }
        }
        coordinator.advance(to: start + .seconds(3_600))
        #expect(fired.entries == ["0.7", "600.7", "1200.7", "1800.7", "2400.7", "3000.7"])
        coordinator.assertNoPendingWork { Issue.record(Comment(rawValue: $0)) }
    }

    @Test func aDebounceNeverFiresWhileCallsKeepComingFasterThanItsInterval() {
        let coordinator = TestCoordinator()
        let fired = EventLog()
        let debouncer = Debouncer(interval: .milliseconds(300), context: coordinator.main) {
            fired.append("\(coordinator.seconds)")
        }
        let typing = coordinator.global.periodicTimer(interval: .milliseconds(200)) { debouncer.call() }
        coordinator.advance(by: .seconds(3_600))  // 18,000 calls
        #expect(fired.entries.isEmpty)
        typing.cancel()
        coordinator.advance(by: .seconds(1))
        #expect(fired.entries == ["3600.3"])
    }

    // MARK: A request timeout racing a reply

    @Test func aRequestTimeoutRacesTheReplyForAnHour() {
        let coordinator = TestCoordinator()
        let server = FakeServer(context: coordinator.serialQueue(named: "server"))
        let outcomes = EventLog()
        // One request a minute; the server takes 0 to 12 seconds; the client gives up after 10.
        let client = coordinator.main.periodicTimer(interval: .seconds(60)) {
            let latency = Duration.seconds(Int(coordinator.seconds / 60) * 7 % 13)
            let sent = coordinator.seconds
            request(server: server, latency: latency, timeout: .seconds(10), context: coordinator.main) { result in
                outcomes.append("\(latency): \(result) after \(coordinator.seconds - sent) s")
            }
        }
        coordinator.advance(by: .seconds(3_600))
        client.cancel()
        coordinator.advance(by: .seconds(60))
        let lines = outcomes.entries
        #expect(lines.count == 60)
        #expect(lines.filter { $0.hasSuffix("after 10.0 s") }.allSatisfy { $0.contains("timedOut") })
        #expect(lines.contains("3.0 seconds: reply(\"pong\") after 3.0 s"))
        #expect(lines.contains("12.0 seconds: timedOut after 10.0 s"))
        // A tie: the timeout was armed before the reply, so at the same instant it wins, every time.
        #expect(lines.contains("10.0 seconds: timedOut after 10.0 s"))
        coordinator.assertNoPendingWork { Issue.record(Comment(rawValue: $0)) }
    }

    // MARK: An async retry loop with exponential back-off

    @Test func aRetryLoopBacksOffExponentiallyOnTheVirtualClock() async throws {
        let coordinator = TestCoordinator()
        let attempts = Shared<[Int]>([])
        let task = coordinator.task {
            try await retrying(clock: coordinator.clock, firstDelay: .seconds(1), maximumDelay: .seconds(300)) {
                attempts.update { $0.append(Int(coordinator.seconds)) }
                // The service is down for the first 50 minutes.
                if coordinator.seconds < 3_000 { throw TestFailure() }
                return "ok at \(Int(coordinator.seconds))"
            }
        }
        coordinator.advance(by: .seconds(3_600))
        var expected = [0]
        var delay = 1
        while expected.last! < 3_000 {
            expected.append(expected.last! + delay)
            delay = min(delay * 2, 300)
        }
        #expect(attempts.value == expected)
        #expect(try await task.value == "ok at \(expected.last!)")
        #expect(coordinator.isIdle)
    }

    // MARK: A class that starts an unstructured task through an injected launcher

    @Test func myFunctionsTaskRunsOnTheInjectedLauncher() async {
        let coordinator = TestCoordinator()
        let object = MyClass(launcher: coordinator, clock: coordinator.clock)
        object.myFunction()
        #expect(object.minutesCounted == 0)
        coordinator.advance(by: .seconds(3_599))
        #expect(object.minutesCounted == 59)
        coordinator.advance(by: .seconds(1))
        #expect(object.minutesCounted == 60)
        #expect(coordinator.isIdle)  // the task finished after its hour
    }
}

// MARK: - The code under test

/// Runs `action` in `context` once calls have stopped for `interval`.
final class Debouncer: Sendable {
    private let interval: Duration
    private let context: Exec
    private let action: @Sendable () -> Void
    private let pending = LockedBox<(any Lifetime)?>(nil)

    init(interval: Duration, context: Exec, action: @escaping @Sendable () -> Void) {
        self.interval = interval
        self.context = context
        self.action = action
    }

    func call() {
        let timer = context.singleTimer(interval: interval, handler: action)
        let previous = pending.withLock { pending in
            defer { pending = timer }
            return pending
        }
        previous?.cancel()
    }
}

/// A server that answers "pong" after a given latency, in its own context.
struct FakeServer: Sendable {
    let context: Exec

    func ping(latency: Duration, reply: @escaping @Sendable (String) -> Void) -> any Lifetime {
        context.singleTimer(interval: latency) { reply("pong") }
    }
}

enum RequestResult: Sendable {
    case reply(String)
    case timedOut
}

/// Sends a ping and delivers the reply or a time-out in `context`, whichever comes first, exactly once.
func request(
    server: FakeServer,
    latency: Duration,
    timeout: Duration,
    context: Exec,
    completion: @escaping @Sendable (RequestResult) -> Void
) {
    let state = LockedBox<(done: Bool, handles: [any Lifetime])>((false, []))
    @Sendable func finish(_ result: RequestResult) {
        let handles: [any Lifetime]? = state.withLock { state in
            if state.done { return nil }
            state.done = true
            defer { state.handles = [] }
            return state.handles
        }
        guard let handles else { return }
        for handle in handles { handle.cancel() }
        completion(result)
    }
    let timer = context.singleTimer(interval: timeout) { finish(.timedOut) }
    let call = server.ping(latency: latency) { answer in context.invoke { finish(.reply(answer)) } }
    state.withLock { $0.handles = [timer, call] }
}

/// Calls `operation` until it succeeds, sleeping on `clock` between attempts: `firstDelay`, then twice as long each
/// time, up to `maximumDelay`.
func retrying<C: Clock<Duration>, Value: Sendable>(
    clock: C,
    firstDelay: Duration,
    maximumDelay: Duration,
    _ operation: () async throws -> Value
) async throws -> Value {
    var delay = firstDelay
    while true {
        do {
            return try await operation()
        } catch {
            try await clock.sleep(for: delay)
            delay = min(delay * 2, maximumDelay)
        }
    }
}

/// Starts its background work through an injected launcher instead of `Task { }`, so a test can drive it.
final class MyClass: Sendable {
    private let launcher: any TaskLauncher
    private let clock: any Clock<Duration>
    private let minutes = LockedBox(0)

    init(launcher: any TaskLauncher = Exec.utility, clock: any Clock<Duration> = ContinuousClock()) {
        self.launcher = launcher
        self.clock = clock
    }

    var minutesCounted: Int { minutes.withLock { $0 } }

    /// Counts the minutes of the next hour.
    func myFunction() {
        launcher.task { [clock, minutes] in
            for _ in 0..<60 {
                try await clock.sleep(for: .seconds(60))
                minutes.withLock { $0 += 1 }
            }
        }
    }
}
