// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Records values from any thread and lets a test wait for a number of them without sleeping.
final class Recorder<Value: Sendable>: Sendable {
    private let values = LockedBox<[Value]>([])
    private let signal = DispatchSemaphore(value: 0)

    func record(_ value: Value) {
        values.withLock { $0.append(value) }
        signal.signal()
    }

    var recorded: [Value] { values.withLock { $0 } }

    /// Waits for `count` more records; `false` when they did not all arrive within `timeout` seconds (generous: the
    /// machine is shared).
    func wait(for count: Int = 1, timeout: Double = 10) -> Bool {
        for _ in 0..<count where signal.wait(timeout: .now() + timeout) == .timedOut { return false }
        return true
    }
}

/// A flag that can be set from any thread.
final class Flag: Sendable {
    private let value = Atomic(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

struct TestError: Error, Equatable {}

/// A user's own context that implements only the four requirements of the seed, on a private serial queue.
struct MinimalSerialContext: ExecutionContext {
    let queue = DispatchQueue(label: "MinimalSerialContext")

    var type: ExecutionType { .serialAsync }
    func invoke(_ execute: @escaping @Sendable () -> Void) { queue.async(execute: execute) }
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { queue.async(execute: execute) }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { queue.sync(execute: execute) }
}

/// A user's own immediate context that counts how often it was used.
final class CountingImmediateContext: ExecutionContext {
    let invocations = Atomic(0)

    var type: ExecutionType { .immediate }
    func invoke(_ execute: @escaping @Sendable () -> Void) {
        invocations.add(1, ordering: .relaxed)
        execute()
    }
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) {
        invocations.add(1, ordering: .relaxed)
        DispatchQueue.global().async(execute: execute)
    }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) {
        invocations.add(1, ordering: .relaxed)
        execute()
    }
}

/// A concurrent asynchronous context of the user's, running blocks on a global queue.
struct ConcurrentTestContext: ExecutionContext {
    var type: ExecutionType { .concurrentAsync }
    func invoke(_ execute: @escaping @Sendable () -> Void) { DispatchQueue.global().async(execute: execute) }
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { DispatchQueue.global().async(execute: execute) }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { DispatchQueue.global().sync(execute: execute) }
}

/// A serial context whose queued blocks run only when the test calls ``runPending()``: the test thread is the
/// context, so "inside the context" and "queued but not started" are both under the test's control.
final class ManualSerialContext: ExecutionContext {
    private let pending = LockedBox<[@Sendable () -> Void]>([])
    private let running = PThreadMutex(type: .recursive)
    private let arrivals = DispatchSemaphore(value: 0)

    var type: ExecutionType { .serialAsync }

    func invoke(_ execute: @escaping @Sendable () -> Void) {
        pending.withLock { $0.append(execute) }
        arrivals.signal()
    }

    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { invoke(execute) }

    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { running.sync { execute() } }

    /// Waits until a block has been queued; `false` after a generous timeout.
    func waitForArrival(timeout: Double = 10) -> Bool {
        arrivals.wait(timeout: .now() + timeout) == .success
    }

    /// Runs every queued block, in order, on the calling thread; returns how many ran.
    @discardableResult
    func runPending() -> Int {
        let blocks = pending.withLock { blocks in
            defer { blocks.removeAll() }
            return blocks
        }
        running.sync { for block in blocks { block() } }
        return blocks.count
    }
}

/// Submits `count` blocks to `context` and reports whether they all ran, in submission order, never two at once.
///
/// Each block stays inside the context for a few scheduler yields, so that a context that does run blocks
/// concurrently is caught overlapping.
func runsSeriallyInOrder(_ context: Exec, count: Int) -> (allRan: Bool, inOrder: Bool, overlapped: Bool) {
    let running = Atomic(0)
    let overlapped = Flag()
    let order = Recorder<Int>()
    for value in 0..<count {
        context.invoke {
            if running.add(1, ordering: .relaxed).newValue > 1 { overlapped.set() }
            for _ in 0..<3 { sched_yield() }
            running.subtract(1, ordering: .relaxed)
            order.record(value)
        }
    }
    let allRan = order.wait(for: count)
    return (allRan, order.recorded == Array(0..<count), overlapped.isSet)
}

/// Whether a block handed to `submit` ran, and only after `submit` had returned.
///
/// The block waits for a gate that opens once `submit` has returned. Run inline by mistake, it would wait for itself:
/// it gives up after a generous timeout and reports the failure instead of hanging the test.
func runsOnlyAfterReturning(_ submit: (@escaping @Sendable () -> Void) -> Void) -> Bool {
    let gate = DispatchSemaphore(value: 0)
    let returned = Flag()
    let outcome = Recorder<Bool>()
    submit {
        let opened = gate.wait(timeout: .now() + 10) == .success
        outcome.record(opened && returned.isSet)
    }
    returned.set()
    gate.signal()
    return outcome.wait() && outcome.recorded == [true]
}

/// An object that keeps a lifetime, the way a view model keeps its timer or observation, and counts the calls of
/// the closure that captures it.
final class LifetimeOwner: Sendable {
    private let held = LockedBox<(any Lifetime)?>(nil)
    let calls = Recorder<Int>()

    func hold(_ lifetime: any Lifetime) { held.withLock { $0 = lifetime } }

    func cancel() { held.withLock { $0 }?.cancel() }

    func called() { calls.record(1) }
}
