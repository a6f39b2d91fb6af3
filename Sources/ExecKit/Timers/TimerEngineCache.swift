// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims
import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The private-queue engine each thread looked up last, so that a loop of timers on one queue does not look the
/// engine up in libdispatch (a queue-specific read under libdispatch's lock; `QueueAttachment` gives its cost) on every
/// schedule.
///
/// One entry per thread (a C thread-local, read in a few instructions; also registered under a POSIX thread-specific
/// key, whose destructor releases it when the thread exits): the `DispatchQueue` object the engine was looked up
/// through, held `unowned`, its address, the firing mode, and the engine, retained.
///
/// Why an address can be trusted: an `unowned` reference to a Swift object keeps the object's memory allocated after
/// its last strong reference is gone (only its `deinit` runs), so while an entry exists no other object can be
/// allocated at the address it holds. A caller that holds a `DispatchQueue` at that address therefore holds the very
/// object the engine was looked up through, and that object names one `dispatch_queue_t` for its whole life. (Not
/// the queue's own address: libdispatch frees a queue before it runs its queue-specific destructors, so a new queue
/// can take a freed one's address while the old engine still looks attached.)
///
/// - Apple platforms: off. There the `DispatchQueue` *is* the Objective-C queue object, whose `unowned` references do
///   not keep its memory, so an address could name a new queue; every schedule looks the engine up.
/// - Memory: each thread keeps at most one engine (about 200 bytes) and the memory (not the queue) of one
///   `DispatchQueue` wrapper until it looks up another queue or exits, when the entry is released.
enum TimerEngineCache {
    /// An entry: which queue object and mode, and the engine.
    private final class Entry {
        /// Keeps the object's memory, so that ``queueAddress`` names no other object while this entry lives.
        unowned let queue: DispatchQueue
        let queueAddress: UnsafeRawPointer
        let serial: Bool
        let engine: TimerEngine
        init(queue: DispatchQueue, serial: Bool, engine: TimerEngine) {
            self.queue = queue
            self.queueAddress = UnsafeRawPointer(Unmanaged.passUnretained(queue).toOpaque())
            self.serial = serial
            self.engine = engine
        }
    }

    /// The thread-specific key, which holds the same entry as the thread-local only so that its destructor releases
    /// the entry when the thread exits.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { value in
            guard let value else { return }
            // The exiting thread's thread-local goes first, so no later destructor on this thread reads a freed entry.
            if execkit_timer_engine_cache() == value { execkit_set_timer_engine_cache(nil) }
            Unmanaged<AnyObject>.fromOpaque(value).release()
        }
        precondition(status == 0, "ExecKit: pthread_key_create failed (\(status)) for the timer engine cache")
        return key
    }()

    /// The engine this thread cached for `queue` (the very object) in this firing mode, without a retain: it stays
    /// alive while the caller holds `queue` (the queue owns it), and this thread's entry holds it too until this
    /// thread stores another.
    @inline(__always)
    static func unretainedEngine(for queue: DispatchQueue, serial: Bool) -> Unmanaged<TimerEngine>? {
        #if canImport(Darwin)
        return nil
        #else
        guard let value = execkit_timer_engine_cache() else { return nil }
        let address = UnsafeRawPointer(Unmanaged.passUnretained(queue).toOpaque())
        return Unmanaged<Entry>.fromOpaque(value)._withUnsafeGuaranteedRef { entry in
            guard entry.queueAddress == address, entry.serial == serial else { return nil }
            return Unmanaged.passUnretained(entry.engine)
        }
        #endif
    }

    /// Makes `engine` this thread's entry for `queue`, releasing the previous one.
    static func store(_ engine: TimerEngine, for queue: DispatchQueue, serial: Bool) {
        #if !canImport(Darwin)
        let previous = execkit_timer_engine_cache()
        let entry = Unmanaged.passRetained(Entry(queue: queue, serial: serial, engine: engine)).toOpaque()
        execkit_set_timer_engine_cache(entry)
        pthread_setspecific(key, entry)
        if let previous { Unmanaged<AnyObject>.fromOpaque(previous).release() }
        #endif
    }
}
