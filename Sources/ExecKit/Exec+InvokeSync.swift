// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// Why invokeSync is split in two. `DispatchQueue.sync<T>(execute:) rethrows -> T` is generic code in the toolchain's
// Dispatch library, never specialized for the caller: each call looks up `Optional<T>`'s metadata and boxes the
// result on the heap (about 2,000 of the 3,091 instructions that `syncQueue().invokeSync` used to cost, callgrind).
// Here the generic part, which only carries the value or the error out, is inlined into the caller, where the result
// type is known; the part that decides where to run is one non-generic function, which waits with the non-generic
// `DispatchQueue.sync(execute: () -> Void)` or, for the `.queue` types that record their entry, `dispatch_sync_f`
// (no block to copy).

extension Exec {
    /// Runs `execute` in this context, waits for it, and returns its value or rethrows its error.
    ///
    /// - ``direct``, and the main-queue cases when already on the main queue: runs immediately (on ``mainOrdered``
    ///   this overtakes pending blocks, because waiting for them from the main queue could never end).
    ///   <!-- G-invokesync-inline-inside -->
    /// - A `.queue` that ``isCurrent``: runs immediately, even through `sync` calls on other queues made since
    ///   entering it, unless the type is ``ExecutionType/mutex``, which stops the program with a message (a mutex is
    ///   not re-entrant). <!-- G-invokesync-inline-inside G-misuse-stops-with-message -->
    /// - Otherwise: `sync` on the context's queue; ``custom(_:)`` forwards.
    /// - Cost: on a private queue, a `dispatch_sync_f` plus the re-entrancy check (a thread-local read and two
    ///   queue-specific look-ups) and the entry record (two thread-local writes); one allocation, the context that
    ///   `withoutActuallyEscaping` builds to check that the block handed to libdispatch did not escape. From the main
    ///   queue, the main queue is lent to the block as well (about 65 instructions), and the wait is watched (about 17
    ///   more: a wait that lasts 10 s gets a line on standard error, see <doc:ChoosingAContext>).
    ///   <!-- G-invokesync-queue-cost -->
    @inlinable
    public func invokeSync<Return>(_ execute: () throws -> Return) rethrows -> Return {
        switch self {
        case .direct:
            return try execute()
        case .custom(let context):
            return try context.invokeSync(execute)
        default:
            return try carryingResult(of: execute, rescue: { throw $0 })
        }
    }

    /// Runs `execute` through ``waitForElsewhere(_:)`` and carries its value or error out. `rescue` rethrows the
    /// error: the standard way to let a `rethrows` function throw an error it caught from its own closure parameter.
    ///
    /// `waitForElsewhere` is called as a method, not passed in as a closure: handing a closure that captures
    /// `execute` to a closure *parameter* would need `withoutActuallyEscaping` (a run-time escape check), and a
    /// method reference would copy `self` (a retain of a `.queue`'s queue).
    @inlinable
    func carryingResult<Return>(
        of execute: () throws -> Return,
        rescue: (any Error) throws -> Return
    ) rethrows -> Return {
        var result: Return?
        var failure: (any Error)?
        waitForElsewhere {
            do { result = try execute() } catch { failure = error }
        }
        if let failure { return try rescue(failure) }
        guard let result else { preconditionFailure("ExecKit: invokeSync's block did not run before returning") }
        return result
    }

    /// Where ``invokeSync(_:)`` runs its block, for every case but ``direct`` and ``custom(_:)``: `body` has run when
    /// this returns.
    @usableFromInline
    func waitForElsewhere(_ body: () -> Void) {
        switch self {
        case .direct, .custom:
            preconditionFailure("ExecKit: invokeSync handles .direct and .custom itself")
        case .main, .mainAsync, .mainOrdered:
            // On the main queue, or inside an earlier `sync` made there, through `sync` calls on other queues:
            // waiting for the main queue here could never end, and running inline is what the serial-async types do
            // when inside.
            if Self.isInsideMainQueue { return body() }
            if let replacement = overridden { return replacement.invokeSync(body) }
            SerialQueueEntry.main.sync(body)
        case .interactive, .user, .default, .utility, .background:
            if let replacement = overridden { return replacement.invokeSync(body) }
            dispatchQueue.sync(execute: body)
        case .queue(let queue, let type):
            switch type {
            case .concurrentAsync:
                // Waiting on a concurrent queue from inside it cannot deadlock, and global queues have no identity.
                switch QueueWait.accepted(by: queue) {
                case .sync: queue.sync(execute: body)
                case .asyncAndWait: SerialQueueEntry(queue).sync(waitingWith: .asyncAndWait, body)
                }
            case .immediate:
                // Meant for concurrent queues (a global one included); on a serial queue the caller may already be
                // inside, where waiting would deadlock and running inline is what "immediate" promises.
                if Self.isKnownInside(queue) { return body() }
                SerialQueueEntry(queue).sync(body)
            case .mutex:
                if Self.isInside(queue, as: type) { Self.reentrantMutexFailure(queue) }
                SerialQueueEntry(queue).sync(body)
            case .serialAsync, .conditionallyAsync:
                if Self.isInside(queue, as: type) { return body() }
                SerialQueueEntry(queue).sync(body)
            }
        }
    }
}
