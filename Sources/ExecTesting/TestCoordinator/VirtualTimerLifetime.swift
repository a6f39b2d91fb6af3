// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit

/// The handle a ``TestCoordinator`` context returns for a timer: cancelling or releasing it stops the timer.
final class VirtualTimerLifetime: Lifetime {
    private let timer: VirtualTimer

    init(_ timer: VirtualTimer) { self.timer = timer }

    deinit { timer.cancel() }

    /// Stops the timer and releases its handler; idempotent, callable from any thread.
    func cancel() { timer.cancel() }
}
