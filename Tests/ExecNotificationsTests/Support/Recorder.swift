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

/// Waits until every block queued on `queue` so far has run; fails the test, instead of hanging, when that takes more
/// than `timeout` seconds (generous: never a speed claim).
///
/// It does not prove that every delivery to an observer on `queue` has run: a drain that used up its budget queues a
/// new drain, possibly behind this flush. Wait for deliveries with ``waitUntil(timeout:file:line:_:)``; use this
/// to let a queue run what it holds, or to check that nothing ran (of a cancelled observer, say).
func flush(_ queue: DispatchQueue, timeout: Double = 10, file: StaticString = #filePath, line: UInt = #line) {
    let done = DispatchSemaphore(value: 0)
    queue.async { done.signal() }
    waitOrFail(done, timeout: timeout, "\(queue.label) did not drain", file: file, line: line)
}

/// Waits for `semaphore`; fails the test, instead of hanging, after `timeout` seconds (generous: never a speed claim).
///
/// - Returns: Whether the semaphore was signalled in time.
@discardableResult
func waitOrFail(
    _ semaphore: DispatchSemaphore,
    timeout: Double = 10,
    _ message: String = "semaphore not signalled",
    file: StaticString = #filePath,
    line: UInt = #line
) -> Bool {
    guard semaphore.wait(timeout: .now() + timeout) == .timedOut else { return true }
    XCTFail("\(message) within \(timeout) s", file: file, line: line)
    return false
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

/// Runs `operation`; fails the test, and cancels the operation, when it has not finished within `seconds`
/// (generous: never a speed claim). The operation runs in an unstructured task, so even one that ignores
/// cancellation cannot hang the test.
///
/// - Returns: What `operation` returned, or `nil` when it timed out.
func withTimeout<Value: Sendable>(
    seconds: Double = 10,
    file: StaticString = #filePath,
    line: UInt = #line,
    _ operation: @escaping @Sendable () async -> Value
) async -> Value? {
    let work = Task { await operation() }
    let result: Value? = await withCheckedContinuation { continuation in
        let pending = LockedBox<CheckedContinuation<Value?, Never>?>(continuation)
        let resume: @Sendable (Value?) -> Void = { value in
            let continuation = pending.withLock { pending in
                defer { pending = nil }
                return pending
            }
            continuation?.resume(returning: value)
        }
        let timer = Task {
            // Cancelled when the work finished first: then the work's value must win, so resume only on a real timeout.
            guard (try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9))) != nil else { return }
            resume(nil)
        }
        Task {
            let value = await work.value
            timer.cancel()
            resume(value)
        }
    }
    if result == nil {
        work.cancel()
        XCTFail("did not finish within \(seconds) s", file: file, line: line)
    }
    return result
}
