// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Synchronization

/// The lifetime ``NotificationHub/addObserver(for:object:context:using:)`` returns: cancelling or releasing it stops
/// the observer and removes it from its hub.
///
/// Cancelling never waits for the observer's block: once `cancel()` returns the block never starts again, but a call
/// already running on another thread may still be finishing (see ``NotificationHub/addObserver(for:object:context:using:)``).
/// So an observation may be cancelled, or released, from inside any observer block, or on a queue that the block
/// waits for, without deadlock.
///
/// Cancelling also lets go of the observer, and so of its block: a block that captures an owner which holds this
/// observation does not keep the owner alive once the observation is cancelled. (The hub releases its own reference
/// once no post that could still see the observer is in flight.)
final class NotificationObservation: Lifetime {
    /// The observer, retained, until the first `cancel()` takes it.
    private let observer: Atomic<Unmanaged<Observer>?>
    private let nameID: Int
    /// Weak: an observation must not keep its hub alive, and outliving it is harmless. Set once in `init` (a `var`
    /// only so that Swift 6.0 toolchains, which lack `weak let`, build it); weak loads are thread-safe.
    private nonisolated(unsafe) weak var hub: NotificationHub?

    init(observer: Observer, nameID: Int, hub: NotificationHub) {
        self.observer = Atomic(Unmanaged.passRetained(observer))
        self.nameID = nameID
        self.hub = hub
    }

    deinit { cancel() }

    func cancel() {
        guard let taken = observer.exchange(nil, ordering: .acquiringAndReleasing) else { return }
        let observer = taken.takeRetainedValue()
        guard observer.cancel() else { return }  // the hub went away first
        hub?.remove(observer, from: nameID)
    }
}
