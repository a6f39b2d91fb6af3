// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims
package import Dispatch
import Synchronization

/// An object that a queue keeps as a queue-specific value, released with the queue: how ExecKit gives each private
/// queue one timer engine and one set of executors.
///
/// Read through libdispatch's `dispatch_queue_get_specific` directly when ``RawQueueIdentity`` knows the
/// `dispatch_queue_t` (about 75 instructions with the call, callgrind), instead of the overlay's generic `getSpecific`
/// (about 170); through the overlay otherwise. A process uses one way or the other throughout.
///
/// - Important: An attachment must outlive every queue it attaches to (keep it in a `static let`): its key is its
///   own address, and a queue still holding a value under the address of a freed attachment would hand that value to
///   a new attachment allocated there.
/// - Thread-safety: ``object(on:)`` may be called from any thread; callers serialize ``attach(_:to:)`` so that a queue
///   never gets two objects (the first one attached stays for the queue's life).
package final class QueueAttachment<Object: AnyObject & Sendable>: Sendable {
    /// The key of the overlay's path; its address is also the key of the C path.
    private let key = DispatchSpecificKey<Object>()
    /// Bumped (releasing) before each attachment and read (acquiring) after each look-up that finds an object, so
    /// that the object's initialization happens before its use on another thread in a way the Thread Sanitizer sees.
    /// libdispatch's own lock around queue-specific values already orders the two, but it is not instrumented, and
    /// the sanitizer reported the first use of a timer engine attached by another thread as a race.
    private let attachments = Atomic<UInt>(0)

    package init() {}

    /// The object attached to `queue` itself (not to a queue it targets), or `nil`.
    ///
    /// - Cost: a queue-specific look-up, and an acquiring load (a plain load on x86-64 and arm64) when it finds one.
    package func object(on queue: DispatchQueue) -> Object? {
        guard let rawQueue = RawQueueIdentity.queuePointer(of: queue) else {
            return published(queue.getSpecific(key: key))
        }
        guard let value = execkit_dispatch_queue_get_specific(rawQueue, rawKey) else { return nil }
        return published(Unmanaged<Object>.fromOpaque(value).takeUnretainedValue())
    }

    /// `object`, once this thread has synchronized with the attachment that published it.
    @inline(__always)
    private func published(_ object: Object?) -> Object? {
        if object != nil { _ = attachments.load(ordering: .acquiring) }
        return object
    }

    /// Attaches `object` to `queue`, which keeps it until the queue is deallocated.
    package func attach(_ object: Object, to queue: DispatchQueue) {
        attachments.add(1, ordering: .releasing)
        guard let rawQueue = RawQueueIdentity.queuePointer(of: queue) else {
            return queue.setSpecific(key: key, value: object)
        }
        let value = Unmanaged.passRetained(object as AnyObject).toOpaque()
        execkit_dispatch_queue_set_specific(rawQueue, rawKey, value, releaseAttachedObject)
    }

    private var rawKey: UnsafeRawPointer { UnsafeRawPointer(Unmanaged.passUnretained(key).toOpaque()) }
}

/// The destructor libdispatch calls when a queue holding an attached object is deallocated.
private func releaseAttachedObject(_ value: UnsafeMutableRawPointer?) {
    guard let value else { return }
    Unmanaged<AnyObject>.fromOpaque(value).release()
}
