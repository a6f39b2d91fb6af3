// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecNotifications
import Testing

/// Hubs are independent: a post reaches only the observers of the hub it was made on, even when other hubs (the
/// process-wide `default` one included) have observers of the same name, and streams too.
@Suite struct HubIndependenceTests {
    /// A name no other test uses, since one of the hubs here is the process-wide one.
    static let name = NotificationName<Int>("HubIndependenceTests.value")

    // Guarantees: G-hub-independent
    @Test func aPostReachesOnlyTheObserversOfItsOwnHub() {
        let hubs = [NotificationHub(), NotificationHub(), NotificationHub.default]
        let received = hubs.map { _ in LockedBox<[Int]>([]) }
        let observations = hubs.indices.map { index in
            hubs[index].addObserver(for: Self.name) { value in received[index].withLock { $0.append(value) } }
        }
        for (index, hub) in hubs.enumerated() {
            hub.post(Self.name, payload: index)
        }
        for index in hubs.indices {
            #expect(received[index].withLock { $0 } == [index], "hub \(index) got another hub's post")
        }
        withExtendedLifetime(observations) {}
    }

    // Guarantees: G-hub-independent
    @Test func aStreamOfOneHubGetsNoPostOfAnother() async {
        let stream: AsyncStream<Int>
        do {
            let first = NotificationHub()
            let second = NotificationHub()
            stream = first.notifications(for: Self.name)
            second.post(Self.name, payload: 2)
            first.post(Self.name, payload: 1)
            second.post(Self.name, payload: 3)
        }
        // Both hubs are gone, so the stream has finished: iterating it ends after what it buffered.
        var received: [Int] = []
        for await value in stream { received.append(value) }
        #expect(received == [1], "the stream of the first hub received another hub's posts")
    }
}
