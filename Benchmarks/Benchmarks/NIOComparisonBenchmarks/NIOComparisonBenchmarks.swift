// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// ExecKit beside SwiftNIO (issue #21), built only with `EXECKIT_BENCHMARK_NIO=1` (see Package.swift). Every ExecKit
// measurement `X` has SwiftNIO baselines `X (baseline: SwiftNIO …)` measured in the same run: timers, a lock, an actor,
// a task and an `execute` hop, each on a private serial queue (`Exec.asyncQueue()`) on ExecKit's side and on one
// event loop on SwiftNIO's. Each name says where the work is submitted from, so it says what crosses a thread.

import Benchmark
import Dispatch
import NIOCore
import NIOPosix

let benchmarks: @Sendable () -> Void = {
    registerTimerComparisons()
    registerFiringComparisons()
    registerConcurrencyComparisons()
}

/// The group behind ``loop``: one thread, made on first use and never shut down, as a server keeps its loops for the
/// whole process.
private let loopGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)

/// The event loop every SwiftNIO baseline runs on, the counterpart of an ExecKit private serial queue.
let loop: any EventLoop = loopGroup.next()

/// Runs `body` on the loop's thread and returns its value once it has run: the loop's counterpart of `invokeSync`.
/// (`submit` plus `wait`, one promise per call: a benchmark calls it once per sample, not per operation.)
func onLoop<Value: Sendable>(_ body: @escaping @Sendable () -> Value) -> Value {
    do {
        return try loop.submit(body).wait()
    } catch {
        fatalError("the event loop refused a block: \(error)")
    }
}

/// A SwiftNIO scheduled-callback handler that does nothing when it fires: the counterpart of an empty timer handler.
struct EmptyCallback: NIOScheduledCallbackHandler, Sendable {
    func handleScheduledCallback(eventLoop: some EventLoop) {}
}

/// `loop.scheduleCallback(in:handler:)`, which throws only when the loop has been shut down (never, here).
@inline(__always) @discardableResult
func scheduleCallback(
    in amount: TimeAmount,
    handler: some NIOScheduledCallbackHandler & Sendable
) -> NIOScheduledCallback {
    do {
        return try loop.scheduleCallback(in: amount, handler: handler)
    } catch {
        fatalError("the event loop refused a callback: \(error)")
    }
}
