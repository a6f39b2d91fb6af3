// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecDispatch
import Synchronization

/// Makes a concurrent asynchronous context serial: blocks wait in a FIFO and are handed to the wrapped context in
/// batches, one batch at a time, so no two blocks run at once and they run in submission order.
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

    private func drain() {
        drainingThread.store(ThreadIdentity.current, ordering: .relaxed)
        while true {
            let batch = state.withLock { state in
                if state.pending.isEmpty {
                    // Cleared under the lock that ends the drain: once another thread may start the next drain, this
                    // thread must no longer count as the drainer (nor overwrite the next drainer later).
                    drainingThread.store(0, ordering: .relaxed)
                    state.isDraining = false
                }
                defer { state.pending.removeAll() }
                return state.pending
            }
            if batch.isEmpty { return }
            for block in batch { block() }
        }
    }
}
