// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A thread-local record of the serial queues this thread has entered through ExecKit and not yet left.
///
/// Why: libdispatch answers "which queue is running me?" with the queue of the innermost `sync` only. Inside
/// `lock.invokeSync { other.sync { … } }` the current queue is `other`, and `other` does not target `lock`, so a
/// queue-specific look-up cannot tell that this thread holds `lock`; a second `lock.invokeSync` there would die in
/// libdispatch's deadlock trap with no message. The record lets ExecKit see every queue entered on this thread.
///
/// It is kept on the serial-queue paths only (never on `.direct` or `.main`): each entry lives in the frame of the
/// call that entered the queue, linked through one pthread-specific pointer, so entering costs two
/// `pthread_setspecific` calls and no allocation.
enum EnteredContexts {
    private struct Entry {
        let identity: ObjectIdentifier
        let outer: UnsafeMutableRawPointer?
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let result = pthread_key_create(&key, nil)
        precondition(result == 0, "ExecKit: pthread_key_create failed with error \(result).")
        return key
    }()

    /// Whether this thread is inside `object` (a queue or context), through any number of other calls.
    ///
    /// - Complexity: O(number of queues this thread is inside), usually zero to two.
    static func contains(_ object: AnyObject) -> Bool {
        let identity = ObjectIdentifier(object)
        var next = pthread_getspecific(key)
        while let pointer = next {
            let entry = pointer.assumingMemoryBound(to: Entry.self).pointee
            if entry.identity == identity { return true }
            next = entry.outer
        }
        return false
    }

    /// Runs `body` with `object` recorded as entered by this thread.
    static func entering<Return>(_ object: AnyObject, _ body: () throws -> Return) rethrows -> Return {
        let outer = pthread_getspecific(key)
        var entry = Entry(identity: ObjectIdentifier(object), outer: outer)
        return try withUnsafeMutablePointer(to: &entry) { pointer in
            pthread_setspecific(key, pointer)
            defer { pthread_setspecific(key, outer) }
            return try body()
        }
    }
}
