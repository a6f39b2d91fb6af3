// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

/// Whoever holds a closure releases it as soon as it can never run again. Each test builds the cycle a user builds:
/// an owner keeps a lifetime whose closure captures the owner. The owner must go once the closure cannot run again.
// Guarantees: G-lifetime-release
@Suite struct LifetimeReleaseTests {
    static let contexts: [Exec] = [
        .direct, .main, .mainAsync, .utility, .asyncQueue(), .syncQueue(), .direct.serialized(),
        .custom(MinimalSerialContext()), .custom(CountingImmediateContext()),
    ]

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

    @Test(arguments: contexts)
    func aCancelledOneShotTimerReleasesItsHandlerBeforeFiring(context: Exec) {
        weak var weakOwner: LifetimeOwner?
        do {
            let owner = LifetimeOwner()
            weakOwner = owner
            owner.hold(context.singleTimer(interval: .seconds(3_600)) { owner.called() })
            owner.cancel()
        }
        #expect(becomesNil { weakOwner })
    }

    @Test(arguments: contexts)
    func aReleasedTimerLifetimeReleasesItsHandler(context: Exec) {
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            _ = context.periodicTimer(interval: .seconds(3_600)) { token.touch() }
        }
        #expect(becomesNil { weakToken })
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
        #expect(becomesNil { weakToken }, "a cancelled aggregate still holds its children")
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
