// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims
package import Dispatch

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `DispatchQueue.isCurrent` through libdispatch's C functions, without the Swift overlay's generic look-ups.
///
/// Each queue is marked with a queue-specific value whose key is derived from the queue's own address (the
/// `dispatch_queue_t`) plus one byte: only that queue ever sets that key, so `dispatch_get_specific(key)`, which
/// searches the running queue and its targets, is non-nil exactly when this queue, or one targeting it, runs the
/// caller. The odd address matters: other code keys queue-specific values by the addresses of objects (the overlay's
/// `DispatchSpecificKey`s, statics), which are aligned, so a key of theirs that outlived its object can never equal a
/// new queue's key. Marking is idempotent (the same key and value every time), so racing first calls need no lock.
///
/// It needs the `dispatch_queue_t` behind a `DispatchQueue`. On Apple platforms the two are the same object. On other
/// platforms the overlay's class keeps it in its first stored property, which Swift lays out right after the
/// two-word object header; that is checked once, against the main queue and a global queue, whose addresses
/// libdispatch exports. If the check fails, ``queuePointer(of:)`` answers `nil` and `isCurrent` keeps its portable
/// (slower) implementation, after one line on standard error.
package enum RawQueueIdentity {
    /// Whether `isCurrent` uses libdispatch's C functions in this process (validated on first use).
    package static var isActive: Bool { isLayoutKnown }

    /// The `dispatch_queue_t` behind `queue`, or `nil` where it cannot be found reliably.
    ///
    /// - Cost: a load of a C global (the check's result) and a load.
    @inline(__always)
    package static func queuePointer(of queue: DispatchQueue) -> UnsafeRawPointer? {
        guard isLayoutKnown else { return nil }
        return unvalidatedPointer(of: queue)
    }

    /// The layout check's result: a relaxed load of a C global once it has run, the check itself before.
    private static var isLayoutKnown: Bool {
        @inline(__always) get {
            switch execkit_raw_queue_layout() {
            case 1: return true
            case 2: return false
            default: return layoutIsKnown
            }
        }
    }

    /// Whether `queue` (a `dispatch_queue_t`), or a queue that targets it, runs the caller; marks it on first use.
    /// `nil` for a global queue, which is never marked.
    @inline(__always)
    static func isCurrent(_ queue: UnsafeRawPointer, isGlobalQueue: () -> Bool) -> Bool? {
        let key = queue + 1
        if execkit_dispatch_queue_get_specific(queue, key) == nil {
            if isGlobalQueue() { return nil }
            execkit_dispatch_queue_set_specific(queue, key, UnsafeMutableRawPointer(mutating: queue), nil)
        }
        return execkit_dispatch_get_specific(key) != nil
    }

    private static func unvalidatedPointer(of queue: DispatchQueue) -> UnsafeRawPointer? {
        let object = UnsafeRawPointer(Unmanaged.passUnretained(queue).toOpaque())
        #if canImport(Darwin)
        return object
        #else
        return object.load(fromByteOffset: 2 * MemoryLayout<UnsafeRawPointer>.stride, as: UnsafeRawPointer?.self)
        #endif
    }

    /// Whether ``unvalidatedPointer(of:)`` finds the `dispatch_queue_t`s that libdispatch exports; computed once, and
    /// recorded in the C global that ``isLayoutKnown`` reads.
    private static let layoutIsKnown: Bool = {
        let known =
            withExtendedLifetime(DispatchQueue.main) { unvalidatedPointer(of: $0) } == execkit_main_queue()
            && withExtendedLifetime(DispatchQueue.global(qos: .utility)) { unvalidatedPointer(of: $0) }
                == execkit_dispatch_get_global_queue(0x11, 0)
        if !known {
            let line =
                "ExecKit: the dispatch_queue_t behind a DispatchQueue could not be found; DispatchQueue.isCurrent "
                + "falls back to slower queue-specific look-ups.\n"
            StandardError.write(line)
        }
        execkit_set_raw_queue_layout(known ? 1 : 2)
        return known
    }()
}
