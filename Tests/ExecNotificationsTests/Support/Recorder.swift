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

/// Runs `operation`, failing the test and cancelling it when it has not finished within `seconds` (generous: never a
/// speed claim). The operation must end when cancelled, as a `for await` over an `AsyncStream` does.
///
/// - Returns: What `operation` returned, or `nil` when it timed out.
func withTimeout<Value: Sendable>(
    seconds: Double = 10,
    file: StaticString = #filePath,
    line: UInt = #line,
    _ operation: @escaping @Sendable () async -> Value
) async -> Value? {
    await withTaskGroup(of: Value?.self) { group in
        group.addTask { await operation() }
        group.addTask {
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))
            return nil
        }
        let first = await group.next() ?? nil
        group.cancelAll()
        if first == nil { XCTFail("did not finish within \(seconds) s", file: file, line: line) }
        return first
    }
}
