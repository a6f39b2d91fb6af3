// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
@_spi(ExecTesting) import ExecMutex
import Synchronization

/// One registration: its filter, its context and its block, with the payload type erased so that observers of every
/// name fit in one table. A hub only ever hands an observer payloads of the type it was created for.
///
/// `@unchecked Sendable` because of `object`, never mutated and only tested for `nil` (a weak load is thread-safe),
/// and `registryIndex`, guarded by the hub's writer lock; every other property is immutable and `Sendable`, atomic,
/// or behind a mutex.
final class Observer: @unchecked Sendable {
    /// The object whose posts this observer wants, by identity; `nil` for posts with any object or none.
    let objectID: ObjectIdentifier?
    /// Compared only when `objectID` matches, to tell the observed object from a newer one at the same address.
    /// Weak, so the hub never keeps an observed object alive.
    // `weak var` rather than `weak let` (Swift 6.2+) so Swift 6.0 toolchains build it; it is never reassigned.
    nonisolated(unsafe) weak var object: AnyObject?
    let context: Exec
    /// `context` is `.direct`: deliveries run inline and concurrently, bypassing the mailbox.
    let isDirect: Bool
    /// Takes a pointer to a payload of the observer's type. A `.direct` observer's handler calls the block and returns
    /// `nil`; any other observer's copies the payload into a job for the mailbox. (One closure rather than an enum of
    /// two: extracting a closure from an enum payload costs a retain and a release on every post.)
    private let handler: @Sendable (UnsafeRawPointer) -> ObserverMailbox.Job?
    private let cancelled = Atomic<Bool>(false)
    /// The mailbox of an observer whose context is not `.direct`; `nil` for `.direct`, which needs none.
    /// (A pthread mutex rather than `Synchronization.Mutex`: on Linux the latter is built on futexes, which the Thread
    /// Sanitizer cannot see, so it reports the state it guards as racy.)
    private let mailbox: LockedBox<ObserverMailbox>?
    /// Called once when the hub goes away with the observer still active (a stream finishes its continuation).
    private let onHubGone: (@Sendable () -> Void)?
    /// Where the hub's writer keeps this observer; read and written only under the hub's writer lock.
    nonisolated(unsafe) var registryIndex = -1

    /// An observer whose posts arrive through `deliver` (see `NotificationHub.delivery(to:in:)`): it calls the block
    /// itself for `.direct`, and returns a job for the mailbox otherwise.
    init(
        object: AnyObject?,
        context: Exec,
        onHubGone: (@Sendable () -> Void)? = nil,
        deliver: @escaping @Sendable (UnsafeRawPointer) -> ObserverMailbox.Job?
    ) {
        self.onHubGone = onHubGone
        objectID = object.map(ObjectIdentifier.init)
        self.object = object
        self.context = context
        handler = deliver
        if case .direct = context {
            isDirect = true
            mailbox = nil
        } else {
            isDirect = false
            mailbox = LockedBox(ObserverMailbox(), observed: false)
        }
    }

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Whether a post with an object of identity `postedID` (or none) reaches this observer.
    @inline(__always)
    func matches(_ postedID: ObjectIdentifier?) -> Bool {
        guard let objectID else { return true }
        // The posted object is alive during the post; a live weak reference with the same identity is that object.
        return objectID == postedID && object != nil
    }

    /// Delivers the payload at `payload` (of the observer's type) through the context.
    @inline(__always)
    func deliver(_ payload: UnsafeRawPointer) {
        if isDirect {
            if !cancelled.load(ordering: .acquiring) { _ = handler(payload) }
        } else if !cancelled.load(ordering: .relaxed), let job = handler(payload) {
            // The relaxed load is a cheap early out; the mailbox decides under its lock.
            enqueue(job)
        }
    }

    private func enqueue(_ job: @escaping ObserverMailbox.Job) {
        guard let mailbox else { return }  // never: only observers with a mailbox produce jobs
        switch mailbox.withLock({ $0.enqueue(job) }) {
        case .none: break
        case .startDraining: context.invoke { self.drain() }
        }
    }

    /// Runs the jobs that were pending when it started, then hands any later ones to a new drain, invoked
    /// asynchronously, so that a `post` that started a drain on its own thread does not run other threads' posts
    /// indefinitely.
    private func drain() {
        guard let mailbox else { return }
        while true {
            switch mailbox.withLock({ $0.next() }) {
            case .stop: return
            case .run(let job): job()
            case .handOff:
                context.invokeAsync { self.drain() }
                return
            }
        }
    }

    /// Stops deliveries; returns `false` when the observer was already cancelled.
    ///
    /// Never waits: after it returns the block does not start again (queued deliveries are dropped), but a call that
    /// a drain on another thread had already taken from the mailbox may still be running, or about to enter the block.
    func cancel() -> Bool {
        guard let mailbox else { return !cancelled.exchange(true, ordering: .acquiringAndReleasing) }
        let (wasCancelled, dropped) = mailbox.withLock { mailbox in
            cancelled.store(true, ordering: .releasing)
            return mailbox.cancel()
        }
        _ = consume dropped  // released after unlocking: a payload's deinit may post to this very observer
        return !wasCancelled
    }

    /// The hub is being deinitialized: stops deliveries and, if the observer was still active, calls `onHubGone`.
    ///
    /// Call it with no lock of the hub held: `onHubGone` may run arbitrary code (finishing a stream runs its
    /// `onTermination`, which cancels the observation).
    func hubDidGo() {
        if cancel() { onHubGone?() }
    }
}
