// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims
import ExecDispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The private-queue engine each thread looked up last, so that a loop of timers on one queue does not look the
/// engine up in libdispatch (a queue-specific read under libdispatch's lock, about 250 instructions with the call) on
/// every schedule.
///
/// One entry per thread (a C thread-local, read in a few instructions; also registered under a POSIX thread-specific
/// key, whose destructor releases it when the thread exits): the queue's `dispatch_queue_t`, the firing mode and the
/// engine, retained. An entry is trusted only while its engine has not been detached from its
/// queue: libdispatch detaches it (``TimerEngine/queueDidDetach()``) while deallocating the queue, before any other
/// queue can be allocated at the same address, and the caller holds the queue it asks about, so an address that matches
/// and an engine still attached can only be that queue's.
///
/// - Memory: each thread keeps at most one engine (about 200 bytes, never a queue: an engine whose queue is gone has
///   no Dispatch source) until it looks up another queue or exits, when the entry is released.
enum TimerEngineCache {
    /// An entry: which queue and mode, and the engine.
    private final class Entry {
        let rawQueue: UnsafeRawPointer
        let serial: Bool
        let engine: TimerEngine
        init(rawQueue: UnsafeRawPointer, serial: Bool, engine: TimerEngine) {
            self.rawQueue = rawQueue
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

    /// The engine this thread cached for `rawQueue` in this firing mode, if it is still attached to that queue.
    @inline(__always)
    static func engine(for rawQueue: UnsafeRawPointer, serial: Bool) -> TimerEngine? {
        unretainedEngine(for: rawQueue, serial: serial)?.takeUnretainedValue()
    }

    /// ``engine(for:serial:)`` without a retain: the engine stays alive while the caller holds the queue at `rawQueue`
    /// (the queue owns it), and this thread's entry holds it too until this thread stores another.
    @inline(__always)
    static func unretainedEngine(for rawQueue: UnsafeRawPointer, serial: Bool) -> Unmanaged<TimerEngine>? {
        guard let value = execkit_timer_engine_cache() else { return nil }
        return Unmanaged<Entry>.fromOpaque(value)._withUnsafeGuaranteedRef { entry in
            guard entry.rawQueue == rawQueue, entry.serial == serial, !entry.engine.isDetachedFromQueue else {
                return nil
            }
            return Unmanaged.passUnretained(entry.engine)
        }
    }

    /// Makes `engine` this thread's entry for `rawQueue`, releasing the previous one.
    static func store(_ engine: TimerEngine, for rawQueue: UnsafeRawPointer, serial: Bool) {
        let previous = execkit_timer_engine_cache()
        let entry = Unmanaged.passRetained(Entry(rawQueue: rawQueue, serial: serial, engine: engine)).toOpaque()
        execkit_set_timer_engine_cache(entry)
        pthread_setspecific(key, entry)
        if let previous { Unmanaged<AnyObject>.fromOpaque(previous).release() }
    }
}
