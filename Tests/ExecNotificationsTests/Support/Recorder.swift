// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecNotifications
import XCTest

/// Collects what observers receive, from any thread.
final class Recorder<Value: Sendable>: Sendable {
    private let box = LockedBox<[Value]>([])

    func append(_ value: Value) { box.withLock { $0.append(value) } }

    var values: [Value] { box.withLock { $0 } }

    var count: Int { box.withLock { $0.count } }
}

/// A counter observers can bump from any thread.
final class Counter: Sendable {
    private let box = LockedBox(0)

    func increment() { box.withLock { $0 += 1 } }

    var value: Int { box.withLock { $0 } }
}

/// A flag set from any thread.
final class Flag: Sendable {
    private let box = LockedBox(false)

    func set() { box.withLock { $0 = true } }

    var isSet: Bool { box.withLock { $0 } }
}

/// A plain class to post as a notification's object.
final class Model: Sendable {}

extension NotificationName where Payload == Int {
    static let number = NotificationName("test.number")
}

extension NotificationName where Payload == Void {
    static let ping = NotificationName("test.ping")
}

/// Waits until every block queued on `queue` so far has run.
func flush(_ queue: DispatchQueue) {
    queue.sync {}
}

/// Waits until `condition` holds, polling; fails the test after `timeout` seconds (generous: never a speed claim).
func waitUntil(
    timeout: Double = 10,
    file: StaticString = #filePath,
    line: UInt = #line,
    _ condition: () -> Bool
) {
    let deadline = DispatchTime.now() + timeout
    while !condition() {
        if DispatchTime.now() > deadline {
            XCTFail("condition not met within \(timeout) s", file: file, line: line)
            return
        }
        usleep(1_000)
    }
}
