// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import XCTest

@testable import ExecNotifications

final class NotificationHubLifetimeTests: XCTestCase {
    // Guarantees: G-hub-observations-weak
    func testObservationsDoNotKeepTheHubAlive() {
        var hub: NotificationHub? = NotificationHub()
        weak var weakHub: AnyObject?  // assigned apart, so Swift 6.0 (no `weak let`) and 6.3 (no warning) agree
        weakHub = hub
        let observation = hub!.addObserver(for: .number) { _ in }
        hub = nil
        XCTAssertNil(weakHub)
        observation.cancel()  // outliving the hub is harmless
    }

    // Guarantees: G-hub-gone-stops-observers
    func testReleasedHubDropsDeliveriesStillQueued() {
        var hub: NotificationHub? = NotificationHub()
        let queue = DispatchQueue(label: "test.hub-release")
        let gate = DispatchSemaphore(value: 0)
        queue.async { waitOrFail(gate) }
        let received = Recorder<Int>()
        let observation = hub!.addObserver(for: .number, context: .queue(queue, .serialAsync)) { received.append($0) }
        hub!.post(.number, payload: 1)
        hub = nil
        gate.signal()
        flush(queue)
        XCTAssertEqual(received.values, [])
        withExtendedLifetime(observation) {}
    }

    // Guarantees: G-hub-observations-weak
    func testReleasingTheLastLifetimeAfterTheHubIsHarmless() {
        var hub: NotificationHub? = NotificationHub()
        var observations: [any Lifetime] = []
        for context in [Exec.direct, .main, .utility] {
            observations.append(hub!.addObserver(for: .number, context: context) { _ in })
        }
        hub = nil
        observations.removeAll()
    }

    func testDefaultHubIsShared() {
        XCTAssertTrue(NotificationHub.default === NotificationHub.default)
        let received = Recorder<Int>()
        let name = NotificationName<Int>("test.default-hub")
        let observation = NotificationHub.default.addObserver(for: name) { received.append($0) }
        NotificationHub.default.post(name, payload: 4)
        XCTAssertEqual(received.values, [4])
        withExtendedLifetime(observation) {}
    }
}
