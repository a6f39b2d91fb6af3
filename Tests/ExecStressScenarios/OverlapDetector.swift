// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Synchronization

/// Counts how often a block started while another one was still running: `enter()` at the start of each block,
/// `leave()` at its end, so the window covers the whole block (a serial context must never overlap two).
final class OverlapDetector: Sendable {
    private let inside = Atomic(0)
    private let overlaps = Atomic(0)

    func enter() {
        if inside.add(1, ordering: .acquiringAndReleasing).newValue > 1 { overlaps.add(1, ordering: .relaxed) }
    }

    func leave() {
        inside.subtract(1, ordering: .acquiringAndReleasing)
    }

    /// How many blocks started while another was running.
    var count: Int { overlaps.load(ordering: .relaxed) }
}
