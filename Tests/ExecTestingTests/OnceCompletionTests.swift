// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTestSupport
import ExecTesting
import Testing

/// `OnceCompletion` (issue #18): the handler runs once, in its context, with the first of a value, the timeout or a
/// cancellation, and whatever loses is released at once. In virtual time, so each race is decided by the test.
@Suite struct OnceCompletionTests {
    /// A completion on the coordinator's main queue whose handler logs the outcome with the virtual time and queue.
    private func loggingCompletion(
        _ coordinator: TestCoordinator, _ log: EventLog, timeout: Duration? = .seconds(30)
    ) -> OnceCompletion<String> {
        OnceCompletion(context: coordinator.main, timeout: timeout) { outcome in
            let text: String
            switch outcome {
            case .success(let value): text = value
            case .failure(.timedOut): text = "timed out"
            case .failure(.cancelled): text = "cancelled"
            }
            log.append("\(text) at \(coordinator.seconds) on \(coordinator.currentQueueName ?? "-")")
        }
    }

    // Guarantees: G-once-exactly-once
    @Test func aValueBeforeTheTimeoutWinsAndTheTimeoutNeverFires() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let completion = loggingCompletion(coordinator, log)
        coordinator.global.invoke(after: .seconds(2)) {
            #expect(completion.complete("200 OK"))
            #expect(!completion.complete("late duplicate"))
        }
        coordinator.advance(by: .seconds(60))
        #expect(log.entries == ["200 OK at 2.0 on main"])
        #expect(coordinator.isIdle)  // the timeout's timer was cancelled, not left to fire into nothing
        #expect(!completion.cancel())
        #expect(completion.isFinished)
    }

    // Guarantees: G-once-exactly-once, G-once-virtual-time
    @Test func theTimeoutWinsWhenNoValueArrivesInTimeAndALateValueIsDropped() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let completion = loggingCompletion(coordinator, log)
        let lateValueWon = Shared<Bool?>(nil)
        coordinator.global.invoke(after: .seconds(45)) { lateValueWon.update { $0 = completion.complete("200 OK") } }
        coordinator.advance(by: .seconds(29))
        #expect(log.entries.isEmpty)
        coordinator.advance(by: .seconds(60))
        #expect(log.entries == ["timed out at 30.0 on main"])
        #expect(lateValueWon.value == false)
    }

    // Guarantees: G-once-exactly-once
    @Test func cancelWinsAndCancelsTheTimeout() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let completion = loggingCompletion(coordinator, log)
        coordinator.advance(by: .seconds(3))
        #expect(completion.cancel())
        #expect(!completion.complete("too late"))
        coordinator.advance(by: .seconds(60))
        #expect(log.entries == ["cancelled at 3.0 on main"])
        #expect(coordinator.isIdle)
    }

    // Guarantees: G-once-cost
    @Test func aTimeoutCostsOneTimerAndNoTimeoutNone() {
        let coordinator = TestCoordinator()
        let withoutTimeout = OnceCompletion<Int>(context: coordinator.main) { _ in }
        #expect(coordinator.pendingWork.isEmpty)
        let withTimeout = OnceCompletion<Int>(context: coordinator.main, timeout: .seconds(30)) { _ in }
        #expect(coordinator.pendingWork.map(\.kind) == [.singleTimer])
        withTimeout.complete(1)
        withoutTimeout.complete(2)
        coordinator.runUntilIdle()
        #expect(coordinator.pendingWork.isEmpty)
    }

    @Test func withoutATimeoutOnlyAValueOrACancelFinishesIt() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        let completion = loggingCompletion(coordinator, log, timeout: nil)
        coordinator.advance(by: .seconds(3_600))
        #expect(log.entries.isEmpty)
        #expect(coordinator.isIdle)
        completion.complete("after an hour")
        coordinator.runUntilIdle()
        #expect(log.entries == ["after an hour at 3600.0 on main"])
    }

    // Guarantees: G-once-lifetime
    @Test func releasingACompletionWithNoOutcomeDeliversCancelled() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        do {
            _ = loggingCompletion(coordinator, log, timeout: nil)
        }
        coordinator.runUntilIdle()
        #expect(log.entries == ["cancelled at 0.0 on main"])
    }

    // Guarantees: G-once-lifetime
    @Test func aPendingTimeoutKeepsTheCompletionAliveUntilItFires() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        weak var weakCompletion: OnceCompletion<String>?
        do {
            let completion = loggingCompletion(coordinator, log)
            weakCompletion = completion
        }
        #expect(weakCompletion != nil)
        coordinator.advance(by: .seconds(30))
        #expect(log.entries == ["timed out at 30.0 on main"])
        #expect(weakCompletion == nil)  // the fired timer let go of it
    }

    // Guarantees: G-once-release
    @Test(arguments: ["value", "timeout", "cancel"])
    func theLosersAreReleasedWhenOneOutcomeWins(winner: String) {
        // The handler, the timer's closure and the losing value are released as soon as the winner is decided.
        let coordinator = TestCoordinator()
        weak var weakHandlerToken: Token?
        let completion: OnceCompletion<Token> = {
            let handlerToken = Token()
            weakHandlerToken = handlerToken
            return OnceCompletion(context: coordinator.main, timeout: .seconds(30)) { _ in
                withExtendedLifetime(handlerToken) {}
            }
        }()
        #expect(weakHandlerToken != nil)
        switch winner {
        case "value": completion.complete(Token())
        case "timeout": coordinator.advance(by: .seconds(30))
        default: completion.cancel()
        }
        coordinator.runUntilIdle()
        #expect(coordinator.isIdle)
        weak var weakLoser: Token?
        do {
            let loser = Token()
            weakLoser = loser
            #expect(!completion.complete(loser))
        }
        #expect(weakLoser == nil)
        #expect(weakHandlerToken == nil)
        withExtendedLifetime(completion) {}
    }

    // Guarantees: G-once-virtual-time
    @Test func aCompletionOnDirectTimesOutInVirtualTimeInsideTheOverride() {
        let coordinator = TestCoordinator()
        let log = EventLog()
        coordinator.overridingSharedContexts {
            let completion = OnceCompletion<Int>(timeout: .milliseconds(250)) { outcome in
                log.append("\(outcome) at \(coordinator.seconds)")
            }
            coordinator.advance(by: .seconds(1))
            #expect(!completion.complete(1))
        }
        #expect(log.entries == ["failure(ExecKit.CompletionFailure.timedOut) at 0.25"])
    }

    // Guarantees: G-withcallback-timeout, G-withcallback-virtual-time
    @Test func withCallbackTimesOutOnAnAPIThatNeverCallsBack() async {
        let coordinator = TestCoordinator()
        let neverCalled = LockedBox<[@Sendable (Int) -> Void]>([])
        let caller = Task {
            try await withCallback(timeout: .seconds(5), timerContext: coordinator.global) { _, completion in
                neverCalled.withLock { $0.append(completion) }  // an API that keeps the completion and never calls it
            }
        }
        while neverCalled.withLock({ $0.isEmpty }) { await Task.yield() }
        coordinator.advance(by: .seconds(4))
        coordinator.advance(by: .seconds(1))
        await #expect(throws: CompletionFailure.timedOut) { try await caller.value }
        #expect(coordinator.isIdle)
    }

    // Guarantees: G-withcallback-timeout-cost
    @Test func withCallbacksTimeoutIsOneTimerAndNothingElse() async throws {
        let coordinator = TestCoordinator()
        let pendingDuringTheCall = LockedBox<[PendingWork.Kind]>([])
        let value = try await withCallback(timeout: .seconds(5), timerContext: coordinator.global) { _, completion in
            pendingDuringTheCall.withLock { $0 = coordinator.pendingWork.map(\.kind) }
            completion(42)
        }
        #expect(value == 42)
        #expect(pendingDuringTheCall.withLock { $0 } == [.singleTimer])
        #expect(coordinator.isIdle)
    }

    // Guarantees: G-withcallback-timeout
    @Test func withCallbacksTimeoutIsCancelledWhenTheCallbackComesFirst() async throws {
        let coordinator = TestCoordinator()
        let value = try await withCallback(timeout: .seconds(5), timerContext: coordinator.global) { _, completion in
            completion(42)
        }
        #expect(value == 42)
        #expect(coordinator.isIdle)  // the timer is gone: nothing fires into a finished call
    }
}
