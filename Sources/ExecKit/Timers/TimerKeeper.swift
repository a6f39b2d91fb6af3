// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Synchronization

/// Keeps a fire-and-forget timer's lifetime alive for as long as the timer's own handler refers to this keeper.
///
/// Why: releasing a ``Lifetime`` cancels it, and `invoke(after:_:)` hands no lifetime to its caller. The handler
/// captures the keeper and the keeper holds the lifetime: a cycle that the timer breaks by itself, because a fired
/// one-shot timer (and a cancelled one) releases its handler. The keeper then goes, and the lifetime with it. If the
/// timer fires before ``keep(_:)`` is called, the caller's own reference is the last one, and the lifetime goes as
/// soon as `invoke(after:_:)` returns.
final class TimerKeeper: @unchecked Sendable {
    // Unchecked: `lifetime` is written once, by ``keep(_:)``, before the scheduling thread lets go of the keeper, and
    // only released by `deinit`, which runs after that. `isKept` spells this happens-before edge out in atomics that
    // the Thread Sanitizer can see (it does not see the ordering of Swift's reference counting).
    private var lifetime: (any Lifetime)?
    private let isKept = Atomic(false)

    func keep(_ lifetime: any Lifetime) {
        self.lifetime = lifetime
        isKept.store(true, ordering: .releasing)
    }

    deinit {
        if isKept.load(ordering: .acquiring) { lifetime = nil }
    }
}
