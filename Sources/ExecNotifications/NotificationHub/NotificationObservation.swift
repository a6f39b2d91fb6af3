// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit

/// The lifetime ``NotificationHub/addObserver(for:object:context:using:)`` returns: cancelling or releasing it stops
/// the observer and removes it from its hub.
///
/// Cancelling never waits for the observer's block: once `cancel()` returns the block never starts again, but a call
/// already running on another thread may still be finishing (see ``NotificationHub/addObserver(for:object:context:using:)``).
/// So an observation may be cancelled, or released, from inside any observer block, or on a queue that the block
/// waits for, without deadlock.
final class NotificationObservation: Lifetime {
    private let observer: Observer
    private let nameID: Int
    /// Weak: an observation must not keep its hub alive, and outliving it is harmless. Set once in `init` (a `var`
    /// only so that Swift 6.0 toolchains, which lack `weak let`, build it); weak loads are thread-safe.
    private nonisolated(unsafe) weak var hub: NotificationHub?

    init(observer: Observer, nameID: Int, hub: NotificationHub) {
        self.observer = observer
        self.nameID = nameID
        self.hub = hub
    }

    deinit { cancel() }

    func cancel() {
        guard observer.cancel() else { return }
        hub?.remove(observer, from: nameID)
    }
}
