// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims
public import Dispatch
import Synchronization

/// The queue-specific key under which a queue keeps its own identity key (looked up on that queue alone).
private let identityKeyKey = DispatchSpecificKey<DispatchSpecificKey<Bool>>()

/// Serializes the first marking of a queue so two threads cannot give it two different keys. Guards only
/// libdispatch calls, never Swift state, so the Thread Sanitizer's blindness to `Mutex` on Linux does not matter.
private let markingLock = Mutex<Void>(())

extension DispatchQueue {
    /// Whether the calling code is running on this queue, or on a queue that targets it (directly or through a chain
    /// of target queues).
    ///
    /// Each queue is marked, on first use, with a key of its own; the answer looks that key up through the running
    /// queue's target chain. So it is the same whatever was asked before, and a block on `child` (targeting `parent`)
    /// is on both. <!-- G-queue-identity-targets -->
    ///
    /// - Guarantee: no **false positives**: `true` means this queue (or one targeting it) is running the caller, so
    ///   nothing else runs on this queue, if it is serial, until the caller returns. **False negatives** remain in two
    ///   cases. Inside a `sync` on an unrelated queue libdispatch reports only that queue, so
    ///   `thisQueue.sync { other.sync { thisQueue.isCurrent } }` is `false` (ExecKit's contexts keep a thread-local
    ///   record to see through that; see `Exec.isCurrent`). And a global queue always answers `false`: every queue
    ///   targets one, so "running on it" means nothing a caller could rely on.
    ///   <!-- G-dispatch-iscurrent-no-false-positives -->
    /// - Cost: two queue-specific look-ups through libdispatch's C functions (about 220 instructions, each taking the
    ///   queue's specifics lock), fewer than the two `getSpecific` calls of Dispatch's Swift overlay; the first call on
    ///   a queue also marks it. <!-- G-dispatch-iscurrent-cost -->
    /// - Thread-safety: may be called from any thread. <!-- G-dispatch-identity-any-thread -->
    public var isCurrent: Bool {
        currentness == .current
    }

    /// Whether the caller runs on this queue, with global queues, for which there is no useful answer, told apart.
    package var currentness: QueueCurrentness {
        if let queue = RawQueueIdentity.queuePointer(of: self) {
            guard let current = RawQueueIdentity.isCurrent(queue, isGlobalQueue: { isGlobalQueue }) else {
                return .globalQueue
            }
            return current ? .current : .notCurrent
        }
        guard let key = identityKey else { return .globalQueue }
        return DispatchQueue.getSpecific(key: key) != nil ? .current : .notCurrent
    }

    /// Whether this is the main queue, through whichever wrapper (on Linux every `DispatchQueue.main` is a new one).
    package var isMainQueue: Bool {
        if let queue = RawQueueIdentity.queuePointer(of: self) { return queue == execkit_main_queue() }
        return label == DispatchQueue.main.label
    }

    /// Whether this is one of libdispatch's global (root) queues; they are the only queues whose label starts with
    /// `com.apple.root.`.
    package var isGlobalQueue: Bool {
        label.hasPrefix("com.apple.root.")
    }

    /// This queue's own key, created and set on first use; `nil` for global queues, which are never marked.
    private var identityKey: DispatchSpecificKey<Bool>? {
        if let key = getSpecific(key: identityKeyKey) { return key }
        if isGlobalQueue { return nil }
        return markingLock.withLock { _ in
            if let key = getSpecific(key: identityKeyKey) { return key }
            let key = DispatchSpecificKey<Bool>()
            setSpecific(key: key, value: true)
            setSpecific(key: identityKeyKey, value: key)
            return key
        }
    }
}

/// The answer of ``Dispatch/DispatchQueue/currentness``.
package enum QueueCurrentness: Sendable {
    /// The queue, or a queue that targets it, runs the caller.
    case current
    /// It does not (or libdispatch cannot tell, inside a `sync` on an unrelated queue).
    case notCurrent
    /// The queue is a global queue: there is no useful answer.
    case globalQueue
}
