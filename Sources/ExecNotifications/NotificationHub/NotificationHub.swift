// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

public import ExecKit

/// A notification center whose observers say, with an `Exec` context, where their block runs.
///
/// ```swift
/// extension NotificationName where Payload == String {
///     static let titleChanged = NotificationName("Document.titleChanged")
/// }
/// let observation = NotificationHub.default.addObserver(for: .titleChanged, context: .main) { title in
///     titleLabel = title
/// }
/// NotificationHub.default.post(.titleChanged, payload: "Untitled")
/// ```
///
/// Compared with Foundation's `NotificationCenter`: payloads are typed, observers run in any `Exec` context (not
/// just an `OperationQueue`), an observation ends when its `Lifetime` is cancelled *or released* (no token to
/// remove by hand), and a post to `.direct` observers never waits for a lock and allocates nothing.
/// <!-- G-hub-post-never-waits G-alloc-free-paths -->
///
/// ## Guarantees
/// - **Delivery**: each matching observer's block runs through its context: `.direct` ones inline, inside ``post(_:object:payload:)``,
///   before it returns, in the order they were added; <!-- G-hub-direct-inline --> other contexts get the delivery
///   through `context.invoke` (so `.main` runs it inline when posted on the main queue with nothing of that observer
///   pending, and queues it otherwise). <!-- G-hub-context-delivery --> Such an invoke runs a drain of the observer's
///   pending deliveries; a drain runs at most the deliveries pending when it started and hands any later ones to a
///   new drain with `context.invokeAsync`, so a post that drains on its own thread (a mutex context, or `.main` on the
///   main queue) does not go on running other threads' posts for as long as they keep coming.
///   <!-- G-hub-drain-bounded -->
/// - **Per-observer order**: an observer whose context is not `.direct` receives posts one at a time, in the order the
///   posts reached the hub, even on a concurrent context, and even when a later post is made on the observer's own
///   queue (a `.main` observer never sees a post made on the main queue before an earlier one queued from another
///   thread). <!-- G-hub-post-order --> A `.direct` observer runs on the posting thread, so posts from different
///   threads may reach it concurrently, and a post made from inside an observer block is delivered, depth first,
///   before the outer post continues. <!-- G-hub-nested-depth-first -->
/// - **Snapshot**: a post delivers to the observers registered when it started; observers added during a post
///   (even by one of its own observer blocks) do not receive it. <!-- G-hub-post-snapshot -->
/// - **Cancellation**: after an observation's `cancel()` returns, its block never starts again, even for deliveries
///   already queued on its context. <!-- G-hub-cancel-no-start G-hub-cancel-drops-queued --> `cancel()` never waits,
///   so a call of the block already running on another thread may still be finishing; see
///   ``addObserver(for:object:context:using:)`` for the details and the `.direct` case. <!-- G-hub-cancel-no-wait -->
/// - **Thread-safety**: every method may be called from any thread, concurrently, and from inside observer blocks
///   (post, add, cancel) without deadlock, <!-- G-thread-safety-any-thread G-hub-reentrant-calls --> with one
///   exception: a queue used as a mutex (`Exec/syncQueue(label:qos:)`, `.queue(q, .mutex)`) is not re-entrant.
///   Posting, from inside a block running in such a context, a notification that another observer *on that same
///   context* receives invokes the context from inside itself, which stops the program with a message, as any nested
///   invoke of that context does. (An observer posting to itself is fine: the delivery joins its queue.) Use an
///   asynchronous context, or post with `invokeAsync`, there. <!-- G-hub-mutex-reentry-stops --> `Exec.direct
///   .serialized()`, also of type `mutex`, is re-entrant: there the nested post is delivered inline, depth first.
///   <!-- G-hub-serialized-reentrant -->
/// - **Lifetime**: the hub does not retain observed objects, and observations do not retain the
///   hub. <!-- G-hub-object-weak G-hub-observations-weak --> When the hub is released, its observers stop: deliveries
///   still queued on their contexts are dropped, and the streams made by ``notifications(for:object:bufferingPolicy:)``
///   finish (iteration ends once their buffered payloads are consumed). <!-- G-hub-gone-stops-observers -->
///   Observations that outlive the hub may still be cancelled or released, harmlessly.
/// - **Release of cancelled observers**: posts read the observers without a lock, so an observer cancelled while any
///   post of the hub is in flight (on any thread, including one whose `.direct` block is still running or blocked)
///   stays alive, with its block and everything the block captures, until that post has ended and no post of the
///   hub is in flight (overlapping posts extend the wait). It is released then, by the last post to leave or by the
///   next `addObserver` or `cancel` on the hub. <!-- G-hub-release-after-posts -->
public final class NotificationHub: Sendable {
    private let table = PublishedObserverTable()

    /// The process-wide hub, for notifications that are not scoped to one component.
    public static let `default` = NotificationHub()

    /// Creates a hub with no observers. Hubs are independent: a post reaches only the observers of its own hub.
    /// <!-- G-hub-independent -->
    public init() {}

    deinit {
        // Acted on after the writer lock is released: finishing a stream runs its `onTermination`, which cancels the
        // observation (harmlessly: the observer is already cancelled and the observation's weak hub is gone).
        for observer in table.registeredObservers() { observer.hubDidGo() }
    }

    /// Registers `block` to receive the payload of every post of `name` (for `object`, when given) in `context`.
    ///
    /// - Parameters:
    ///   - name: The notification to observe.
    ///   - object: When not `nil`, only posts made with this very object (compared by identity) are
    ///     delivered. <!-- G-hub-object-filter --> It is held weakly; once it is deallocated the observer receives
    ///     nothing more, even from a new object at the same address. <!-- G-hub-object-weak -->
    ///   - context: Where `block` runs; `Exec/direct` (the default) runs it inside `post`, on the posting
    ///     thread. <!-- G-hub-direct-inline --> A queue used as a mutex (`Exec.syncQueue()`) is not re-entrant: from
    ///     inside a block running in it, do not post a notification that another observer on that same context
    ///     receives (the program stops, as with any nested invoke of that context; see the type's thread-safety
    ///     guarantee). <!-- G-hub-mutex-reentry-stops -->
    ///   - block: Called with each payload. Do not capture the returned lifetime strongly in it: the hub holds the
    ///     block, so that would keep the observation alive until it is cancelled.
    /// - Returns: The observation. It ends when you call `cancel()` or release the last reference to it.
    ///   <!-- G-lifetime-handle -->
    ///
    /// - Cancellation: once `cancel()` has returned (or the lifetime was released), the block never starts again,
    ///   including for deliveries already queued on an asynchronous context: they are
    ///   dropped. <!-- G-hub-cancel-no-start G-hub-cancel-drops-queued --> `cancel()` never waits for the block, so it
    ///   may be called from anywhere, including while holding a lock the block takes, from the block itself, or from
    ///   another observer's block: a call of the block that is already running on another thread (for a context other
    ///   than `.direct`: one that the observer had already taken from its queue when `cancel()` was called) may still
    ///   be finishing when `cancel()` returns. Do not free what such a call uses on the strength of `cancel()` alone.
    ///   For `.direct` observers, the same applies to a post running on another thread: one that had already passed
    ///   this observer's cancellation check may still call the block, once, after `cancel()` returns; a post that
    ///   starts after `cancel()` returns (in the happens-before sense) never calls
    ///   it. <!-- G-hub-cancel-no-wait G-hub-cancel-no-start -->
    /// - Ordering: an observer added from inside a block during a post does not receive that post.
    ///   <!-- G-hub-post-snapshot -->
    /// - Complexity: O(all observers in the hub + name slots), under the hub's writer lock: adding, and cancelling,
    ///   copy the whole observer table (plain words, nothing retained) to publish a new snapshot. Posts are not
    ///   blocked meanwhile. <!-- G-hub-post-never-waits -->
    @inlinable
    public func addObserver<Payload: Sendable>(
        for name: NotificationName<Payload>,
        object: AnyObject? = nil,
        context: Exec = .direct,
        using block: @escaping @Sendable (Payload) -> Void
    ) -> any Lifetime {
        // Inlinable so that the delivery closure is specialized for `Payload` in the caller: a post then loads the
        // payload and calls the block, instead of copying and destroying it through the runtime's generic witnesses.
        // `NotificationHub.delivery`, not `Self.delivery`: Swift 6.3 does not inline a method that uses the dynamic
        // `Self` type where the hub is a stored property or a local.
        addObserver(
            nameID: name.id, object: object, context: context, onHubGone: nil,
            deliver: NotificationHub.delivery(to: block, in: context))
    }

    /// ``addObserver(for:object:context:using:)``, plus `onHubGone`, called once, with no lock of the hub held, if the
    /// hub is deinitialized while the observation is still active.
    func addObserver<Payload: Sendable>(
        for name: NotificationName<Payload>,
        object: AnyObject?,
        context: Exec,
        onHubGone: (@Sendable () -> Void)?,
        using block: @escaping @Sendable (Payload) -> Void
    ) -> any Lifetime {
        addObserver(
            nameID: name.id, object: object, context: context, onHubGone: onHubGone,
            deliver: NotificationHub.delivery(to: block, in: context))
    }

    /// How an observer receives a post: given a pointer to the payload, a `.direct` observer's closure calls `block`
    /// and returns `nil`; any other observer's returns a job carrying a copy of the payload, for its mailbox.
    @inlinable
    static func delivery<Payload: Sendable>(
        to block: @escaping @Sendable (Payload) -> Void,
        in context: Exec
    ) -> @Sendable (UnsafeRawPointer) -> (@Sendable () -> Void)? {
        if case .direct = context {
            return { pointer in
                block(pointer.assumingMemoryBound(to: Payload.self).pointee)
                return nil
            }
        }
        return { pointer in
            let payload = pointer.assumingMemoryBound(to: Payload.self).pointee
            return { block(payload) }
        }
    }

    /// Adds an observer of the notification numbered `nameID` that receives posts through `deliver`, made by
    /// ``delivery(to:in:)`` for the payload type of that name.
    @usableFromInline
    func addObserver(
        nameID: Int,
        object: AnyObject?,
        context: Exec,
        onHubGone: (@Sendable () -> Void)?,
        deliver: @escaping @Sendable (UnsafeRawPointer) -> (@Sendable () -> Void)?
    ) -> any Lifetime {
        let observer = Observer(object: object, context: context, onHubGone: onHubGone, deliver: deliver)
        table.add(observer, to: nameID)
        return NotificationObservation(observer: observer, nameID: nameID, hub: self)
    }

    /// Delivers `payload` to every observer of `name` whose object filter matches `object`.
    ///
    /// - Parameters:
    ///   - name: The notification.
    ///   - object: The object the notification is about; observers that filter on another object (or on an object,
    ///     when this is `nil`) are skipped. Not retained beyond the call.
    ///   - payload: The value each observer receives; copied once per observer with an asynchronous context.
    ///
    /// - Ordering: `.direct` observers have run when this returns, in the order they were
    ///   added. <!-- G-hub-direct-inline --> Other observers receive this post after every earlier post of the hub that
    ///   reached them (see the type's guarantees). <!-- G-hub-post-order -->
    /// - Thread-safety: may be called from any thread and from inside observer
    ///   blocks. <!-- G-thread-safety-any-thread G-hub-reentrant-calls --> Finding the observers takes no lock, so posts
    ///   never wait for `addObserver` or `cancel` (the last post to leave may try the writer's lock, without waiting,
    ///   to free replaced tables); only a delivery to an observer with a context other than `.direct`
    ///   briefly takes that observer's mailbox lock. <!-- G-hub-post-never-waits -->
    /// - Cost: O(matching observers), independent of other names and their observers; with only `.direct`
    ///   observers it allocates nothing. <!-- G-hub-post-scales-with-matching G-alloc-free-paths --> An observer with
    ///   another context costs a job closure (carrying the payload), a lock of its mailbox, and, when this post starts
    ///   a drain (nothing of that observer was pending), a drain closure and a hop through its context.
    /// - Blocking: with a context that runs inline (`.main` on the main queue, a mutex context), a post that starts
    ///   a drain runs the deliveries that are pending then, which may include earlier posts from other threads, but
    ///   not posts that arrive during the drain: those go to a new drain, started with `context.invokeAsync`.
    ///   <!-- G-hub-drain-bounded -->
    @inlinable
    public func post<Payload: Sendable>(_ name: NotificationName<Payload>, object: AnyObject? = nil, payload: Payload) {
        withUnsafePointer(to: payload) { post(id: name.id, object: object, payload: UnsafeRawPointer($0)) }
    }

    /// ``post(_:object:payload:)`` with the payload type erased: `payload` points to a value of the type every
    /// observer of name `id` expects.
    @usableFromInline
    func post(id: Int, object: AnyObject?, payload: UnsafeRawPointer) {
        table.read { table in
            table.withObservers(of: id) { observers in
                let objectID = object.map(ObjectIdentifier.init)
                for observer in observers {
                    observer._withUnsafeGuaranteedRef { observer in
                        if observer.matches(objectID) { observer.deliver(payload) }
                    }
                }
            }
        }
    }

    /// Posts a notification that carries no payload; see ``post(_:object:payload:)``.
    public func post(_ name: NotificationName<Void>, object: AnyObject? = nil) {
        post(name, object: object, payload: ())
    }

    /// Removes `observer`, already cancelled, from the table.
    func remove(_ observer: Observer, from id: Int) {
        table.remove(observer, from: id)
    }

    /// The number of observers of `name` in the table; for tests.
    func observerCount<Payload>(for name: NotificationName<Payload>) -> Int {
        var count = 0
        table.read { count = $0.count(of: name.id) }
        return count
    }
}
