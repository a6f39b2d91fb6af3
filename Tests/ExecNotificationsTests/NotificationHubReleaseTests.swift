// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTestSupport
import Testing

@testable import ExecNotifications

/// An observation lets go of its block, and of everything the block captures, once the block can never run again.
///
/// Each test builds the cycle a user builds: an owner keeps its observation, whose block captures the owner. The hub
/// holds the block, so the owner can only go once the observation has ended and the hub has let go of it.
// Guarantees: G-lifetime-release
@Suite struct NotificationHubReleaseTests {
    static let contexts: [Exec] = [
        .direct, .utility, .main, .asyncQueue(), .syncQueue(), .direct.serialized(), .custom(SerialQueueContext()),
    ]

    @Test(arguments: contexts)
    func aCancelledObservationReleasesItsOwner(context: Exec) {
        let hub = NotificationHub()
        weak var weakOwner: ObservationOwner?
        do {
            let owner = ObservationOwner()
            weakOwner = owner
            owner.hold(hub.addObserver(for: .number, context: context) { _ in owner.received() })
            hub.post(.number, payload: 1)
            #expect(owner.waitForDelivery(), "the observer must receive the post")
            owner.cancel()
        }
        #expect(becomesNil { weakOwner }, "a cancelled observation still holds its block, and so its owner")
    }

    @Test(arguments: contexts)
    func aReleasedObservationReleasesItsOwner(context: Exec) {
        let hub = NotificationHub()
        weak var weakOwner: ObservationOwner?
        do {
            let owner = ObservationOwner()
            weakOwner = owner
            owner.hold(hub.addObserver(for: .number, context: context) { _ in owner.received() })
            hub.post(.number, payload: 1)
            #expect(owner.waitForDelivery(), "the observer must receive the post")
            owner.release()  // no cancel(): dropping the last reference ends the observation
        }
        #expect(becomesNil { weakOwner }, "a released observation still holds its block, and so its owner")
    }

    // Guarantees: G-lifetime-handle
    @Test(arguments: contexts)
    func aReleasedObservationLeavesTheHubAndReleasesItsBlock(context: Exec) {
        let hub = NotificationHub()
        weak var weakToken: Token?
        let deliveries = DispatchSemaphore(value: 0)
        var observation: (any Lifetime)?
        do {
            let token = Token()
            weakToken = token
            observation = hub.addObserver(for: .number, context: context) { _ in
                token.touch()
                deliveries.signal()
            }
        }
        hub.post(.number, payload: 1)
        #expect(deliveries.wait(timeout: .now() + 10) == .success, "the observer must receive the post")
        #expect(hub.observerCount(for: .number) == 1)
        observation = nil
        #expect(hub.observerCount(for: .number) == 0, "a released observation is still in the hub")
        #expect(becomesNil { weakToken }, "a released observation still holds its block")
        withExtendedLifetime(observation) {}
    }

    /// The stream's observer holds the stream's continuation, and so its buffer: a payload posted after the consumer
    /// stopped reading waits there. It is released only once the hub has let go of the observer.
    ///
    /// The stream is made before the consuming task (so that it is registered before the posts) and handed over to
    /// it, so that only the task holds it. Nothing here blocks a thread of the Swift concurrency pool while the task
    /// needs one; a watchdog cancels the task if the first payload never arrives, so a lost post fails the test
    /// instead of hanging it.
    // Guarantees: G-hub-stream-unregisters
    @Test func aStreamReleasesItsObserverOnceItsConsumingTaskEnds() async {
        let hub = NotificationHub()
        let consumedFirst = Flag()
        var tokens: AsyncStream<Token>? = hub.notifications(for: .token)
        #expect(hub.observerCount(for: .token) == 1)
        let consumer = Task { [tokens] in
            guard let tokens else { return }
            for await _ in tokens {
                consumedFirst.set()
                return  // the task ends after one payload, leaving the stream and its iterator
            }
        }
        tokens = nil
        let watchdog = DispatchWorkItem { consumer.cancel() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        weak var weakUnread: Token?
        do {
            let unread = Token()
            weakUnread = unread
            hub.post(.token, payload: Token())
            hub.post(.token, payload: unread)  // buffered, never read
        }
        await consumer.value
        watchdog.cancel()
        #expect(consumedFirst.isSet, "the stream did not deliver the first post")
        #expect(eventually { hub.observerCount(for: .token) == 0 }, "the stream's observer is still in the hub")
        #expect(becomesNil { weakUnread }, "the hub still holds the observer, its continuation and its buffer")
        hub.post(.token, payload: Token())  // nobody listens: must not crash or resurrect anything
        withExtendedLifetime(tokens) {}
    }

    @Test func aStreamReleasesItsObserverWhenItsConsumingTaskIsCancelled() async {
        let hub = NotificationHub()
        var tokens: AsyncStream<Token>? = hub.notifications(for: .token)
        let consumer = Task { [tokens] in
            guard let tokens else { return }
            for await _ in tokens {}
        }
        tokens = nil
        weak var weakToken: Token?
        do {
            let token = Token()
            weakToken = token
            hub.post(.token, payload: token)
        }
        consumer.cancel()
        await consumer.value
        #expect(eventually { hub.observerCount(for: .token) == 0 }, "the stream's observer is still in the hub")
        #expect(becomesNil { weakToken }, "a payload is still held after the stream ended")
        withExtendedLifetime(tokens) {}
    }
}

extension NotificationName where Payload == Token {
    static let token = NotificationName("test.release.token")
}

/// A payload, or something a block captures, whose release the tests watch.
final class Token: Sendable {
    func touch() {}
}

/// An object that keeps its observation, the way a view model does, and whose observer block captures it.
final class ObservationOwner: Sendable {
    private let held = LockedBox<(any Lifetime)?>(nil)
    private let deliveries = DispatchSemaphore(value: 0)

    func hold(_ lifetime: any Lifetime) { held.withLock { $0 = lifetime } }

    func cancel() { held.withLock { $0 }?.cancel() }

    /// Drops the observation without cancelling it.
    func release() { held.withLock { $0 = nil } }

    func received() { deliveries.signal() }

    /// Waits for one delivery; `false` after a generous timeout.
    func waitForDelivery() -> Bool { deliveries.wait(timeout: .now() + 10) == .success }
}
