// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims
import Dispatch
import ExecDispatch

/// A thread-local record of the serial contexts this thread has entered through ExecKit and not yet left: queues, and
/// the contexts ExecKit serializes itself (``MutexContext``, ``SerializedContext``). It is the one answer to "am I
/// inside?" for all of them: `isCurrent`, the re-entry checks and the serial executors' `checkIsolated` read it.
///
/// The rule it implements: a block runs inside every context its thread has entered and not left, and, when it runs
/// for a caller parked in a `sync` (ExecKit's `invokeSync`, `Exec.main.invokeSync`), inside every context that caller
/// is inside too. The parked caller lends its exclusion: it cannot run until the block returns, so the block may run
/// inline what the caller could. A context that must not re-enter (a `syncQueue()`, a mutex-type queue) checks the
/// record and stops with a message instead of running inline.
///
/// The block runs inside what its caller holds, not what its own thread holds further down the stack: a thread that
/// is inside a context and spins a nested run loop, which runs another thread's `Exec.main.invokeSync` block, is not
/// inside that context in the block. Re-entering it there stops (a mutex queue, through libdispatch's own check too)
/// or waits (a `MutexContext`, which before this record answered by thread and ran inline). Such a block runs inside
/// a critical section it never entered; queue the work with `invokeAsync` instead.
///
/// Why: libdispatch answers "which queue is running me?" with the queue of the innermost `sync` only. Inside
/// `lock.invokeSync { other.sync { … } }` the current queue is `other`, and `other` does not target `lock`, so a
/// queue-specific look-up cannot tell that this thread holds `lock`; a second `lock.invokeSync` there would die in
/// libdispatch's deadlock trap with no message. The record lets ExecKit see every queue entered on this thread.
///
/// Queues are recorded by their `dispatch_queue_t`, not by the Swift wrapper: on Linux two wrappers can stand for one
/// queue (every `DispatchQueue.main` is a new one), and a record of one must be found through the other.
///
/// Queues are entered through their ``SerialQueueEntry`` only, and the contexts ExecKit serializes through their
/// ``ExclusiveEntry``: nothing else writes the record. It is kept on the serial paths only (never on `.direct`, nor on
/// `.main.invoke` from the main queue, which runs inline; from elsewhere the block it queues is recorded as inside the
/// main queue): each entry lives in the frame of the call that entered the queue, linked through one C thread-local
/// pointer (`EnteredQueueRecord.h`), so entering costs a thread-local load and two stores (a few instructions each on
/// Linux) and no allocation per call.
package enum EnteredContexts {
    /// What the record holds for a queue: the address of its `dispatch_queue_t` (of the Swift wrapper where
    /// ``RawQueueIdentity`` cannot find that).
    package struct Key: Hashable, Sendable {
        package let address: UInt

        /// The key of `queue`. The caller keeps `queue` alive while the key is recorded: a record of a freed queue
        /// could match a new one allocated at the same address.
        init(_ queue: DispatchQueue) {
            if let raw = RawQueueIdentity.queuePointer(of: queue) {
                address = UInt(bitPattern: raw)
            } else if queue.isMainQueue {
                address = UInt(bitPattern: execkit_main_queue())  // every wrapper of the main queue, one key
            } else {
                address = UInt(bitPattern: Unmanaged.passUnretained(queue).toOpaque())
            }
        }

        /// The key of a `dispatch_queue_t`.
        init(raw: UnsafeRawPointer) { address = UInt(bitPattern: raw) }

        /// The key of a context that ExecKit serializes itself. The caller keeps it alive while the key is recorded.
        package init(context: AnyObject) { address = UInt(bitPattern: Unmanaged.passUnretained(context).toOpaque()) }

        /// The key of a simulated context (a `TestCoordinator`'s queue), `object`, marked in the address's lowest bit,
        /// which an object's address never has. The caller keeps `object` alive while the key is recorded.
        package init(simulated object: AnyObject) {
            address = UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()) | 1
        }

        /// Whether this is the key of a simulated context.
        package var isSimulated: Bool { address & 1 != 0 }

        /// The simulated context this key was made from. Only for a key found in this thread's record, whose entry
        /// keeps the object alive.
        package func simulatedObject<Object: AnyObject>(as type: Object.Type) -> Object? {
            guard isSimulated, let pointer = UnsafeRawPointer(bitPattern: address & ~1) else { return nil }
            return Unmanaged<Object>.fromOpaque(pointer).takeUnretainedValue()
        }
    }

    /// The main queue's key.
    static var mainQueueKey: Key { Key(raw: execkit_main_queue()) }

    private struct Entry {
        var key: Key
        var outer: UnsafeMutableRawPointer?
    }

    /// The entry of a context that one thread at a time can be inside (it holds a lock, or the turn of a FIFO, while
    /// inside), kept by the context: entering it is a few stores, with no closure. A closure-taking ``entering(_:_:)``
    /// called from unspecialized generic code (a context's `invokeSync<Return>` reached through the protocol) costs
    /// about 130 instructions more.
    struct ExclusiveEntry: ~Copyable, @unchecked Sendable {
        // Unchecked: the entry is written only by the thread holding the context's exclusion, and read by threads whose
        // record reaches it: that thread, or one running a block for it while it is parked in a `sync` (which orders
        // the write before the read).
        private let entry: UnsafeMutablePointer<Entry>

        init() {
            entry = .allocate(capacity: 1)
            // A placeholder until the first enter: an even address, so not taken for a simulated context's key.
            entry.initialize(to: Entry(key: Key(raw: UnsafeRawPointer(bitPattern: 2)!), outer: nil))
        }

        deinit { entry.deallocate() }

        /// Records `key` as entered by this thread, innermost. Only the thread holding the context's exclusion may
        /// call this, and it must ``leave(restoring:)`` before giving the exclusion up.
        ///
        /// - Returns: The record to restore.
        @inline(__always)
        func enter(_ key: Key) -> Record {
            let own = execkit_entered_queue_record_head()
            entry.pointee = Entry(key: key, outer: own)
            execkit_set_entered_queue_record_head(entry)
            return own
        }

        /// Restores this thread's record as it was before ``enter(_:)``.
        @inline(__always)
        func leave(restoring own: Record) {
            execkit_set_entered_queue_record_head(own)
        }
    }

    /// Whether this thread is inside `queue`, through any number of other calls.
    ///
    /// - Complexity: O(number of queues this thread is inside), usually zero to two.
    static func contains(_ queue: DispatchQueue) -> Bool {
        // An empty record, the usual case, is answered before the queue's key is looked up.
        guard execkit_entered_queue_record_head() != nil else { return false }
        return contains(Key(queue))
    }

    /// Whether this thread is inside the queue whose key is `key`.
    package static func contains(_ key: Key) -> Bool {
        var next = execkit_entered_queue_record_head()
        if next == nil { return false }
        while let pointer = next {
            let entry = pointer.assumingMemoryBound(to: Entry.self).pointee
            if entry.key == key { return true }
            next = entry.outer
        }
        return false
    }

    /// Runs `body` with the queue whose key is `key` recorded as entered by this thread.
    ///
    /// The caller must keep the queue alive until this returns (see ``Key``).
    package static func entering<Return>(_ key: Key, _ body: () throws -> Return) rethrows -> Return {
        try entering(key, after: currentRecord, body)
    }

    /// The keys of every context this thread is inside, innermost first.
    ///
    /// - Complexity: O(number of contexts this thread is inside); allocates the array.
    package static var enteredKeys: [Key] {
        var keys: [Key] = []
        var next = execkit_entered_queue_record_head()
        while let pointer = next {
            let entry = pointer.assumingMemoryBound(to: Entry.self).pointee
            keys.append(entry.key)
            next = entry.outer
        }
        return keys
    }

    /// Runs `body` with `key` recorded as entered, innermost, over this thread's record less the entries `hidden`
    /// picks out; restores the record afterwards. For a simulation that runs on this thread work that would run on a
    /// thread of its own: the simulated contexts the caller is in are hidden, and the real ones, which this thread
    /// does hold, stay.
    package static func entering<Return>(
        _ key: Key, hiding hidden: (Key) -> Bool, _ body: () throws -> Return
    ) rethrows -> Return {
        let kept = enteredKeys.filter { !hidden($0) }
        return try withUnsafeTemporaryAllocation(of: Entry.self, capacity: kept.count) { entries in
            // Linked outermost last: entry i's outer entry is entry i + 1.
            for index in kept.indices.reversed() {
                let outer = index + 1 < kept.count ? UnsafeMutableRawPointer(entries.baseAddress! + index + 1) : nil
                (entries.baseAddress! + index).initialize(to: Entry(key: kept[index], outer: outer))
            }
            defer { _ = entries.deinitialize() }
            let outer = kept.isEmpty ? nil : UnsafeMutableRawPointer(entries.baseAddress!)
            return try entering(key, after: outer, body)
        }
    }

    /// A thread's record: the innermost entry, linked to the outer ones (`nil` when empty). Its entries live in the
    /// frames of the calls that made them.
    typealias Record = UnsafeMutableRawPointer?

    /// This thread's record now.
    static var currentRecord: Record { execkit_entered_queue_record_head() }

    /// Calls `body` with `record` extended by `key`, innermost: a record to lend a block (``entering(_:after:_:)``),
    /// not this thread's own, which is unchanged. The entry lives in this frame, so `body` must not let the record
    /// escape.
    @inline(__always)
    static func withRecord<Return>(_ record: Record, extendedBy key: Key, _ body: (Record) throws -> Return) rethrows
        -> Return
    {
        var entry = Entry(key: key, outer: record)
        return try withUnsafeMutablePointer(to: &entry) { try body(UnsafeMutableRawPointer($0)) }
    }

    /// Runs `body` with the queue whose key is `key` recorded as entered, inside `outer`: this thread's own record,
    /// or, for a block that another thread waits for (a `sync`), that thread's record, so the block counts as inside
    /// every queue its waiting caller is inside. Restores this thread's own record afterwards.
    ///
    /// The caller must keep the queue alive until this returns (see ``Key``), and the entries of `outer` too (a
    /// waiting thread's frames do stay).
    static func entering<Return>(_ key: Key, after outer: Record, _ body: () throws -> Return) rethrows -> Return {
        let own = execkit_entered_queue_record_head()
        var entry = Entry(key: key, outer: outer)
        return try withUnsafeMutablePointer(to: &entry) { pointer in
            execkit_set_entered_queue_record_head(pointer)
            defer { execkit_set_entered_queue_record_head(own) }
            return try body()
        }
    }
}
