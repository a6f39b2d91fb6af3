// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecNotifications
import ExecTestSupport
import Testing

/// A payload whose release the tests watch: a queued delivery holds its payload until it has run or been dropped.
private final class QueuedPayload: Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
}

/// A weak reference to a posted payload.
private final class WeakPayload: @unchecked Sendable {
    // Unchecked: written only in `init`, before the reference is shared; a weak load is thread-safe.
    weak var payload: QueuedPayload?
    init(_ payload: QueuedPayload) { self.payload = payload }
}

extension NotificationName where Payload == QueuedPayload {
    fileprivate static let queued = NotificationName("test.cancelDropsQueued")
}

/// *Notifications*: "After `cancel()` returns, the block never starts again, and deliveries already queued on its
/// context are dropped" (issue #32), on every kind of context where a delivery can wait: the main-queue cases, a global
/// queue, private queues of each type, both mutex kinds, a serialized global queue and a context of the user's.
/// (`.direct` runs each delivery inside `post`, so nothing of it is ever queued.)
///
/// How the tests know that nothing can run any more: each posted payload is watched through a weak reference. A queued
/// delivery holds its payload until it has run or been dropped, so once every payload is gone, each delivery has
/// either run (and recorded its value) or been dropped; none is still waiting. No flush of the context is needed,
/// which matters for the concurrent ones, which have no order to flush by.
@Suite struct CancelDropsQueuedDeliveriesTests {
    /// Every context where a delivery can wait.
    static let contexts: [Exec] = [
        .main, .mainAsync, .mainOrdered, .utility, .asyncQueue(label: "test.async"),
        .syncQueue(label: "test.sync"),
        .queue(DispatchQueue(label: "test.concurrent", attributes: .concurrent), .concurrentAsync),
        .direct.serialized(), .utility.serialized(), .custom(SerialQueueContext()),
    ]
    /// The contexts that one of their own blocks can hold while the test posts from outside (serial, and not a mutex:
    /// a post to a held mutex context waits in `post` for the lock, so its delivery is never queued behind it).
    static let holdableContexts: [Exec] = [
        .main, .mainAsync, .mainOrdered, .asyncQueue(label: "test.async"), .utility.serialized(),
        .custom(SerialQueueContext()),
    ]
    /// Rounds per test case: each is quick, and a race between a cancel and a drain shows only now and then. 25, not
    /// more: each round blocks a thread of the suite's shared pool while it waits, and 16 cases run beside every other
    /// test on two cores (CI runs the suite five times: 125 rounds per context there).
    static let rounds = 25

    /// Deliveries queued behind a delivery that is still running (they wait in the observer's order, whatever the
    /// context) never start once `cancel()` has returned. The first delivery is posted from a thread of its own: on a
    /// mutex context it runs inside that post, holding the context. (An observer that ignored the cancellation for
    /// waiting deliveries would run them once the first returns: `received` would hold 2, 3 and 4.)
    // Guarantees: G-hub-cancel-drops-queued
    @Test(arguments: contexts)
    func deliveriesQueuedBehindARunningBlockAreDropped(context: Exec) {
        for round in 0..<Self.rounds {
            let hub = NotificationHub()
            let received = LockedBox<[Int]>([])
            let started = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            let observation = hub.addObserver(for: .queued, context: context) { payload in
                received.withLock { $0.append(payload.value) }
                guard payload.value == 1 else { return }
                started.signal()
                _ = release.wait(timeout: .now() + 30)  // bounded: a failing run must not hang the suite
            }
            let firstPostReturned = DispatchSemaphore(value: 0)
            startDetachedThread {
                hub.post(.queued, payload: QueuedPayload(1))
                firstPostReturned.signal()
            }
            guard waitBlocking(started, seconds: 10) else {
                Issue.record("round \(round): the first delivery did not start")
                release.signal()
                return
            }
            let queued = post(2...4, to: hub)  // queued behind the running delivery
            observation.cancel()
            release.signal()
            #expect(waitBlocking(firstPostReturned, seconds: 10), "round \(round): the first post did not return")
            #expect(eventually { queued.allSatisfy { $0.payload == nil } }, "round \(round): a delivery still waits")
            let values = received.withLock { $0 }
            #expect(values == [1], "round \(round): a delivery queued before cancel() ran after it")
            if values != [1] { return }
        }
    }

    /// Deliveries queued on a context that is busy with a block of its own, so that not even the first one has
    /// started, never start once `cancel()` has returned. (A drain that ignored the cancellation would run all three.)
    // Guarantees: G-hub-cancel-drops-queued
    @Test(arguments: holdableContexts)
    func deliveriesQueuedOnABusyContextAreDropped(context: Exec) {
        for round in 0..<Self.rounds {
            let hub = NotificationHub()
            let received = LockedBox<[Int]>([])
            let observation = hub.addObserver(for: .queued, context: context) { payload in
                received.withLock { $0.append(payload.value) }
            }
            let holding = DispatchSemaphore(value: 0)
            let release = DispatchSemaphore(value: 0)
            context.invokeAsync {
                holding.signal()
                _ = release.wait(timeout: .now() + 30)  // bounded: a failing run must not hang the suite
            }
            guard waitBlocking(holding, seconds: 10) else {
                Issue.record("round \(round): the context did not run the holding block")
                release.signal()
                return
            }
            let queued = post(1...3, to: hub)  // all queued behind the holding block
            observation.cancel()
            release.signal()
            #expect(eventually { queued.allSatisfy { $0.payload == nil } }, "round \(round): a delivery still waits")
            let values = received.withLock { $0 }
            #expect(values.isEmpty, "round \(round): a delivery queued before cancel() ran after it")
            if !values.isEmpty { return }
        }
    }
}

/// Posts each of `values` in a payload of its own and returns weak references to the payloads.
private func post(_ values: ClosedRange<Int>, to hub: NotificationHub) -> [WeakPayload] {
    values.map { value in
        let payload = QueuedPayload(value)
        hub.post(.queued, payload: payload)
        return WeakPayload(payload)
    }
}
