// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecDispatch
@_spi(ExecTesting) import ExecMutex

/// Makes a concurrent asynchronous context serial: blocks wait in a FIFO and are handed to the wrapped context in
/// batches, one batch at a time, so no two blocks run at once and they run in submission order. Each batch is a
/// submission of its own, so the wrapped context's thread is given back between batches.
final class SerializedContext: ExecutionContext {
    private let wrapped: any ExecutionContext
    private let state = LockedBox(State(), observed: false)
    /// This context's entry in the record of the thread running a batch (one at a time: the FIFO's turn).
    private let entry = EnteredContexts.ExclusiveEntry()

    private struct State: Sendable {
        var pending: [@Sendable () -> Void] = []
        var phase = Phase.idle
        /// Numbers each submitted drain, so that one whose batch a waiting caller took over finds nothing to do.
        var generation: UInt64 = 0

        /// Submits the next drain if blocks are pending, else goes idle; returns the drain's number, or `nil`.
        mutating func finishBatch() -> UInt64? {
            guard !pending.isEmpty else {
                phase = .idle
                return nil
            }
            generation &+= 1
            phase = .submitted(generation)
            return generation
        }
    }

    private enum Phase: Sendable, Equatable {
        /// Nothing pending, no drain submitted.
        case idle
        /// A drain with this number is submitted to the wrapped context and has not started.
        case submitted(UInt64)
        /// A batch is running, in a drain or in a waiting caller's `invokeSync`.
        case running
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

    /// `true`: a nested `invokeSync` from inside runs inline.
    var isReentrant: Bool { true }

    /// Whether this thread is running one of this context's blocks (possibly through calls into other contexts since),
    /// or runs for a caller parked in a `sync` that is: the record of entered contexts says so (`EnteredContexts`).
    var isCurrent: Bool { EnteredContexts.contains(EnteredContexts.Key(context: self)) }

    func invoke(_ execute: @escaping @Sendable () -> Void) {
        append(execute, withoutHopLatency: false)
    }

    /// Queues a timer firing that the wrapped context's own timer delivers, as ``invoke(_:)`` queues a block, except
    /// that on a `TestCoordinator` the drain it may need is due at once, without the coordinator's hop latency: that
    /// hop is ExecKit's, not the caller's, and must not move the firing off its deadline.
    private func deliverFiring(_ firing: @escaping @Sendable () -> Void) {
        append(firing, withoutHopLatency: true)
    }

    /// Adds `block` to the FIFO, and submits a drain if none is submitted or running.
    private func append(_ block: @escaping @Sendable () -> Void, withoutHopLatency: Bool) {
        let drain = state.withLock { state -> UInt64? in
            state.pending.append(block)
            guard state.phase == .idle else { return nil }
            return state.finishBatch()
        }
        if let drain { submitDrain(drain, withoutHopLatency: withoutHopLatency) }
    }

    /// Submits drain `number` to the wrapped context. If that context lets go of it without running it (a
    /// `TestCoordinator` discarding its work, or gone), this context forgets that drain and drops what it held, as the
    /// wrapped context dropped its own work: otherwise it would wait for that drain for good, holding every block.
    ///
    /// - Parameter withoutHopLatency: on a caller-driven wrapped context, due at once rather than after its hop latency.
    private func submitDrain(_ number: UInt64, withoutHopLatency: Bool = false) {
        let drain = DropAwareBlock {
            self.drain(number)
        } whenDropped: {
            self.dropDrain(number)
        }
        if withoutHopLatency, let driver = wrapped as? any CallerDrivenContext {
            driver.invokeAsyncWithoutHopLatency { drain.run() }
        } else {
            wrapped.invokeAsync { drain.run() }
        }
    }

    /// Drain `number` was dropped unrun: unless a waiting caller took its batch over, drop the pending blocks (after
    /// unlocking, so that what they release may call back in) and go idle, ready for the next block.
    private func dropDrain(_ number: UInt64) {
        let dropped = state.withLock { state -> [@Sendable () -> Void] in
            guard state.phase == .submitted(number) else { return [] }
            state.phase = .idle
            defer { state.pending.removeAll() }
            return state.pending
        }
        withExtendedLifetime(dropped) {}
    }

    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { invoke(execute) }

    /// The wrapped context's clock.
    func timestamp() -> DispatchTime { wrapped.timestamp() }

    /// The wrapped context's concurrent sibling.
    func relativeAsync(qos: DispatchQoS.QoSClass?) -> Exec { wrapped.relativeAsync(qos: qos) }

    /// The wrapped context's timer, each firing joining this context's FIFO (so handlers run one at a time).
    func singleTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void) -> any Lifetime {
        forwardedTimer(
            into: self, delivering: { [self] in deliverFiring($0) }, from: wrapped, interval: interval, leeway: leeway,
            repeats: false, handler: handler)
    }

    /// The wrapped context's periodic timer, each firing joining this context's FIFO; a tick that finds the previous
    /// one still queued or running is skipped.
    func periodicTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void)
        -> any Lifetime
    {
        requirePositivePeriod(interval, "periodicTimer(interval:leeway:handler:)")
        return forwardedTimer(
            into: self, delivering: { [self] in deliverFiring($0) }, from: wrapped, interval: interval, leeway: leeway,
            repeats: true, handler: handler)
    }

    /// Runs `execute` in this context and waits for it. Inside the context, it runs inline. When nothing is pending
    /// or running, the caller takes the FIFO's turn itself and runs `execute` through the wrapped context's
    /// `invokeSync`, like taking a free lock. On a context that only its caller drives (a `TestCoordinator`'s), it
    /// does so whenever no batch is running, after the pending blocks, since waiting there would wait for work only
    /// the test can run. Otherwise it queues `execute` and waits for the FIFO to reach it. (Other blocks never run on
    /// a caller's thread: it may be inside contexts of its own, which they must not find themselves in.)
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) {
        if isCurrent {
            execute()  // already inside this context: waiting for the queue would wait for ourselves
            return
        }
        let done = DispatchSemaphore(value: 0)
        let driver = wrapped as? any CallerDrivenContext
        let stolen = state.withLock { state -> [@Sendable () -> Void]? in
            if state.phase == .idle || (driver != nil && state.phase != .running) {
                state.phase = .running  // a submitted drain, if any, now finds its number stale
                defer { state.pending.removeAll() }
                return state.pending
            }
            state.pending.append {
                execute()
                done.signal()
            }
            return nil
        }
        guard let earlier = stolen else { return done.wait() }
        // The blocks queued before this call run first, in the context alone (only on a caller-driven context; on
        // another, a free FIFO has none), then `execute`, inside whatever contexts the caller is in.
        if !earlier.isEmpty, let driver { driver.runIsolated { runBatch(earlier) } }
        wrapped.invokeSync { runBatch([execute]) }
        finishBatch()
    }

    /// Runs batch `number` (every block pending when it starts), unless a waiting caller has taken it over, then ends
    /// the drain or hands the rest to a fresh submission on the wrapped context. Like a libdispatch serial queue, this
    /// gives the wrapped context's thread back between batches: a block that keeps submitting more (a periodic timer,
    /// a chain of invokes) never holds one thread of a shared pool for good. Costs one wrapped submission per batch
    /// while work keeps arriving.
    private func drain(_ number: UInt64) {
        let batch = state.withLock { state -> [@Sendable () -> Void]? in
            guard state.phase == .submitted(number) else { return nil }
            state.phase = .running
            defer { state.pending.removeAll() }
            return state.pending
        }
        guard let batch else { return }
        runBatch(batch)
        finishBatch()
    }

    /// Runs `batch` inside this context: the thread counts as inside it until the batch returns, before
    /// ``finishBatch()`` lets another thread run the next one.
    private func runBatch(_ batch: [@Sendable () -> Void]) {
        let own = entry.enter(EnteredContexts.Key(context: self))
        defer { entry.leave(restoring: own) }
        for block in batch { block() }
    }

    private func finishBatch() {
        let next = state.withLock { $0.finishBatch() }
        if let next { submitDrain(next) }
    }
}
