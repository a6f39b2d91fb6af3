// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

public import Dispatch
import Synchronization

/// A token stored as a queue-specific value; its identity names one queue.
private final class QueueIdentity: Sendable {}

private let identityKey = DispatchSpecificKey<QueueIdentity>()

/// Serializes the first marking of a queue so two threads cannot give it two different tokens.
private let markingLock = Mutex<Void>(())

extension DispatchQueue {
    /// Whether the calling code is running on this queue.
    ///
    /// Answers through queue-specific values, so it also holds inside a `sync` on this queue and on queues that
    /// target this one, as long as those were never asked themselves. It is an optimisation hint with a firm
    /// direction: it may give **false negatives** (running on a queue `A` that targets this queue, after `A.isCurrent`
    /// was asked, reports `false` here), never **false positives**: `true` means this queue is running the caller.
    ///
    /// - Cost: two queue-specific look-ups (tens of nanoseconds); the first call on a queue also marks it.
    /// - Thread-safety: may be called from any thread.
    public var isCurrent: Bool {
        let token = identityToken()
        return DispatchQueue.getSpecific(key: identityKey) === token
    }

    /// The token marking this queue, set on first use.
    private func identityToken() -> QueueIdentity {
        if let token = getSpecific(key: identityKey) { return token }
        return markingLock.withLock { _ in
            if let token = getSpecific(key: identityKey) { return token }
            let token = QueueIdentity()
            setSpecific(key: identityKey, value: token)
            return token
        }
    }
}
