// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecDispatch
import Synchronization

/// Makes a concurrent asynchronous context serial: blocks wait in a FIFO and are handed to the wrapped context in
/// batches, one batch at a time, so no two blocks run at once and they run in submission order. Each batch is a
/// submission of its own, so the wrapped context's thread is given back between batches.
final class SerializedContext: ExecutionContext {
    private let wrapped: any ExecutionContext
    private let state = LockedBox(State())
    /// The thread running ``drain()``, or zero: lets a nested wait run inline instead of waiting for itself.
    private let drainingThread = Atomic<UInt>(0)

    private struct State: Sendable {
        var pending: [@Sendable () -> Void] = []
        var isDraining = false
    }

    private let serialExecutor = OwnedSerialExecutor()

    init(wrapping context: any ExecutionContext) { wrapped = context }

    /// A serial executor whose jobs join this context's FIFO; made on first use and kept for the context's life.
    var unownedSerialExecutor: UnownedSerialExecutor {
        serialExecutor.get {
            ContextSerialExecutor(
                submit: { [unowned self] run in invokeAsync(run) },
                isCurrent: { [unowned self] in isCurrent },
                name: { [wrapped] in "a serialized \(Swift.type(of: wrapped))" }
            )
        }
    }

    var type: ExecutionType { .serialAsync }

    /// Whether this thread is running the drain, and so one of this context's blocks.
    var isCurrent: Bool { drainingThread.load(ordering: .relaxed) == ThreadIdentity.current }

    func invoke(_ execute: @escaping @Sendable () -> Void) {
        let startDrain = state.withLock { state in
            state.pending.append(execute)
            defer { state.isDraining = true }
            return !state.isDraining
        }
        if startDrain { wrapped.invokeAsync { self.drain() } }
    }

    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { invoke(execute) }

    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) {
        if isCurrent {
            execute()  // already inside this context: waiting for the queue would wait for ourselves
            return
        }
        let done = DispatchSemaphore(value: 0)
        invoke {
            execute()
            done.signal()
        }
        done.wait()
    }

    /// Runs one batch (every block pending when it starts), then ends the drain or hands the rest to a fresh
    /// submission on the wrapped context. Like a libdispatch serial queue, this gives the wrapped context's thread back
    /// between batches: a block that keeps submitting more (a periodic timer, a chain of invokes) never holds one
    /// thread of a shared pool for good. Costs one wrapped submission per batch while work keeps arriving.
    private func drain() {
        drainingThread.store(ThreadIdentity.current, ordering: .relaxed)
        let batch = state.withLock { state in
            defer { state.pending.removeAll() }
            return state.pending
        }
        for block in batch { block() }
        let drainsAgain = state.withLock { state in
            // Cleared under the lock that ends or hands on the drain: once another thread may run the next drain,
            // this thread must no longer count as the drainer (nor overwrite the next drainer later).
            drainingThread.store(0, ordering: .relaxed)
            if state.pending.isEmpty { state.isDraining = false }
            return state.isDraining
        }
        if drainsAgain { wrapped.invokeAsync { self.drain() } }
    }
}
