// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import Synchronization

/// Counts arrivals toward a total, and lets a thread wait (with a generous bound) until the total is reached.
///
/// Unlike a `DispatchGroup`, an arrival beyond the total is counted, not a crash: a scenario reports it.
final class Countdown: Sendable {
    private let total: Int
    private let arrived = Atomic(0)
    private let reached = DispatchSemaphore(value: 0)

    init(_ total: Int) {
        self.total = total
        if total == 0 { reached.signal() }
    }

    func arrive() {
        if arrived.add(1, ordering: .acquiringAndReleasing).newValue == total { reached.signal() }
    }

    /// How many arrived so far.
    var count: Int { arrived.load(ordering: .acquiring) }

    /// Whether the total was reached within `seconds`.
    func wait(seconds: Double = 60) -> Bool {
        reached.wait(timeout: .now() + seconds) == .success
    }
}
