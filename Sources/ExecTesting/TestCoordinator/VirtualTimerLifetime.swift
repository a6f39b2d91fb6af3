// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit

/// The handle a ``TestCoordinator`` context returns for a timer: cancelling or releasing it stops the timer.
///
/// The timer itself is a piece of work in the coordinator (a periodic one re-scheduled after each firing), which holds
/// the handler; cancelling removes that work, so the handler is released at once. The pending work never holds this
/// handle, so releasing the handle does cancel.
final class VirtualTimerLifetime: Lifetime {
    private let storage: CoordinatorStorage
    private let token: WorkToken

    init(storage: CoordinatorStorage, token: WorkToken) {
        self.storage = storage
        self.token = token
    }

    deinit { storage.cancel(token) }

    /// Stops the timer and releases its handler; idempotent, callable from any thread. No firing starts after it
    /// returns.
    func cancel() { storage.cancel(token) }
}
