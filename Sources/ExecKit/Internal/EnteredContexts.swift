// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims

/// A thread-local record of the serial queues this thread has entered through ExecKit and not yet left.
///
/// Why: libdispatch answers "which queue is running me?" with the queue of the innermost `sync` only. Inside
/// `lock.invokeSync { other.sync { … } }` the current queue is `other`, and `other` does not target `lock`, so a
/// queue-specific look-up cannot tell that this thread holds `lock`; a second `lock.invokeSync` there would die in
/// libdispatch's deadlock trap with no message. The record lets ExecKit see every queue entered on this thread.
///
/// It is kept on the serial-queue paths only (never on `.direct` or `.main`): each entry lives in the frame of the
/// call that entered the queue, linked through one C thread-local pointer (`EnteredQueueRecord.h`), so entering
/// costs a thread-local load and two stores (a few instructions each on Linux) and no allocation per call.
enum EnteredContexts {
    private struct Entry {
        let identity: ObjectIdentifier
        let outer: UnsafeMutableRawPointer?
    }

    /// Whether this thread is inside `object` (a queue or context), through any number of other calls.
    ///
    /// - Complexity: O(number of queues this thread is inside), usually zero to two.
    static func contains(_ object: AnyObject) -> Bool {
        let identity = ObjectIdentifier(object)
        var next = execkit_entered_queue_record_head()
        while let pointer = next {
            let entry = pointer.assumingMemoryBound(to: Entry.self).pointee
            if entry.identity == identity { return true }
            next = entry.outer
        }
        return false
    }

    /// Runs `body` with `object` recorded as entered by this thread.
    static func entering<Return>(_ object: AnyObject, _ body: () throws -> Return) rethrows -> Return {
        try entering(identity: ObjectIdentifier(object), body)
    }

    /// Runs `body` with the object whose identity is `identity` recorded as entered by this thread.
    ///
    /// The caller must keep the object alive until this returns: a record of a freed object could match a new object
    /// allocated at the same address.
    static func entering<Return>(identity: ObjectIdentifier, _ body: () throws -> Return) rethrows -> Return {
        let outer = execkit_entered_queue_record_head()
        var entry = Entry(identity: identity, outer: outer)
        return try withUnsafeMutablePointer(to: &entry) { pointer in
            execkit_set_entered_queue_record_head(pointer)
            defer { execkit_set_entered_queue_record_head(outer) }
            return try body()
        }
    }
}
