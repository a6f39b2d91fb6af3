// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

/// Whoever holds a closure releases it as soon as it can never run again. Each test builds the cycle a user builds:
/// an owner keeps a lifetime whose closure captures the owner. The owner must go once the closure cannot run again.
///
/// *Timers and lifetimes* and `Lifetime` promise the release *when `cancel()` returns* (and when the handle is
/// released), unless a call of the handler is running on another thread then: that call keeps it until it returns.
/// So wherever no call can be running, the owner must be gone right after `cancel()` returns, with no polling.
// Guarantees: G-lifetime-release
@Suite struct LifetimeReleaseTests {
    /// Every way a timer is kept: the engines' serial and concurrent firings (main queue, private queues, global
    /// queues), a Dispatch source per timer (a global queue given as `.queue`), forwarded timers (`MutexContext`,
    /// `SerializedContext`), the default timers of a context of the user's, and a wrapper that keeps its context's.
    static let contexts: [Exec] = [
        .direct, .main, .mainAsync, .mainOrdered, .utility, .asyncQueue(), .syncQueue(),
        .queue(DispatchQueue(label: "concurrent", attributes: .concurrent), .concurrentAsync),
        .queue(.global(), .concurrentAsync), .direct.serialized(), .utility.serialized(),
        .custom(MinimalSerialContext()), .custom(CountingImmediateContext()),
        .custom(ConcurrentTestContext()).serialized(), .custom(CountingImmediateContext()).alwaysAsync(),
    ]

    /// The contexts that run one block at a time: one the test keeps busy cannot be running the handler.
    static let serialContexts = contexts.filter { $0.type.isSerial }

    /// Polled: the firing releases the handler on its own thread once the handler has returned, and no event marks
    /// that moment.
    @Test(arguments: contexts)
    func aOneShotTimerReleasesItsHandlerOnceItHasFired(context: Exec) {
        weak var weakOwner: LifetimeOwner?
        do {
            let owner = LifetimeOwner()
            weakOwner = owner
            owner.hold(context.singleTimer(interval: .milliseconds(1)) { owner.called() })
            #expect(owner.calls.wait(), "the timer must fire")
        }
        #expect(becomesNil { weakOwner }, "a fired one-shot timer still holds its handler, and so its owner")
    }

    /// Polled: a firing every millisecond may be running on another thread when the test thread cancels, and then the
    /// promise is "when that call returns", which no event marks. On a concurrent context (or an immediate one, whose
    /// handler runs on the firing thread) nothing can keep the handler from running at that moment, so this is all a
    /// test can check there; serial contexts are checked at once below.
    @Test(arguments: contexts)
    func aCancelledPeriodicTimerReleasesItsHandler(context: Exec) {
        weak var weakOwner: LifetimeOwner?
        do {
            let owner = LifetimeOwner()
            weakOwner = owner
            owner.hold(context.periodicTimer(interval: .milliseconds(1)) { owner.called() })
            #expect(owner.calls.wait(), "the timer must fire")
            owner.cancel()
        }
        #expect(becomesNil { weakOwner }, "a cancelled periodic timer still holds its handler, and so its owner")
    }

    /// A periodic timer that has fired, cancelled from the test thread while the test keeps its serial context busy:
    /// no call of the handler can be running, so the handler (and the owner) must be gone when `cancel()` returns.
    @Test(arguments: serialContexts)
    func aFiredPeriodicTimerIsReleasedWhenCancelReturns(context: Exec) {
        weak var weakOwner: LifetimeOwner?
        do {
            let owner = LifetimeOwner()
            weakOwner = owner
            owner.hold(context.periodicTimer(interval: .milliseconds(1)) { owner.called() })
            #expect(owner.calls.wait(), "the timer must fire")
        }
        let busy = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        context.invokeAsync {
            busy.signal()
            _ = done.wait(timeout: .now() + 10)  // bounded: never holds the context for good
        }
        #expect(busy.wait(timeout: .now() + 10) == .success, "the context never ran the blocking block")
        weakOwner?.cancel()
        let released = weakOwner == nil
        done.signal()
        #expect(released, "a cancelled periodic timer still held its handler, and so its owner, after cancel()")
        #expect(becomesNil { weakOwner })  // let a leak fail here rather than outlive the test
    }

    /// No call can be running: the timer has not fired.
    @Test(arguments: contexts)
    func aCancelledOneShotTimerReleasesItsHandlerBeforeFiring(context: Exec) {
        weak var weakOwner: LifetimeOwner?
        do {
            let owner = LifetimeOwner()
            weakOwner = owner
            owner.hold(context.singleTimer(interval: .seconds(3_600)) { owner.called() })
        }
        weakOwner?.cancel()
        #expect(weakOwner == nil, "a cancelled one-shot timer still held its handler after cancel()")
    }

    /// No call can be running: the timer has not fired.
    @Test(arguments: contexts)
    func aCancelledPeriodicTimerReleasesItsHandlerBeforeFiring(context: Exec) {
        weak var weakOwner: LifetimeOwner?
        do {
            let owner = LifetimeOwner()
            weakOwner = owner
            owner.hold(context.periodicTimer(interval: .seconds(3_600)) { owner.called() })
        }
        weakOwner?.cancel()
        #expect(weakOwner == nil, "a cancelled periodic timer still held its handler after cancel()")
    }

    /// Releasing the handle cancels, and releases the handler before the release returns.
    @Test(arguments: contexts)
    func aReleasedTimerLifetimeReleasesItsHandler(context: Exec) {
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            _ = context.periodicTimer(interval: .seconds(3_600)) { token.touch() }
        }
        #expect(weakToken == nil, "a released timer lifetime still held its handler")
    }

    // Guarantees: G-lifetime-aggregate
    @Test func aCancelledAggregateReleasesItsChildren() {
        weak var weakToken: Token?
        let aggregate = AggregateLifetime()
        do {
            let token = Token()
            weakToken = token
            aggregate.add(TokenHoldingLifetime(token))  // cancelling it alone would not let go of the token
        }
        #expect(aggregate.count == 1)
        aggregate.cancel()
        #expect(aggregate.count == 0)
        #expect(weakToken == nil, "a cancelled aggregate still held its children after cancel()")
    }

    // Guarantees: G-lifetime-aggregate
    @Test func aLifetimeAddedToACancelledAggregateIsCancelledAndNotKept() {
        let aggregate = AggregateLifetime()
        aggregate.cancel()
        weak var weakChild: TokenHoldingLifetime?
        do {
            let child = TokenHoldingLifetime(Token())
            weakChild = child
            aggregate.add(child)
            #expect(child.isCancelled)
        }
        #expect(aggregate.count == 0)
        #expect(weakChild == nil)
    }

    /// Lifetimes are classes with a non-mutating `cancel()`: a `let` handle can be cancelled, also from `@MainActor`
    /// code and from inside the handler (this test would not compile otherwise).
    // Guarantees: G-lifetime-handle
    @Test @MainActor func aLetHandleCanBeCancelled() {
        let timer = Exec.utility.singleTimer(interval: .seconds(3_600)) {}
        timer.cancel()
        timer.cancel()  // idempotent
        let observed: any Lifetime = CallbackLifetime {}
        observed.cancel()
    }
}

/// Something a closure can capture, to watch its release.
final class Token: Sendable {
    func touch() {}
}

/// A lifetime that keeps a token even once cancelled: only its holder letting go of it releases the token.
final class TokenHoldingLifetime: Lifetime {
    let token: Token
    private let cancelled = LockedBox(false)

    init(_ token: Token) { self.token = token }

    var isCancelled: Bool { cancelled.withLock { $0 } }

    func cancel() { cancelled.withLock { $0 = true } }
}
