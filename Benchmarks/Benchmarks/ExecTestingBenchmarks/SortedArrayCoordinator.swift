// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting

/// The baseline design: pending blocks in an array sorted by (deadline, sequence), the next block last so that
/// running it is `removeLast`, and each insertion found by binary search then shifting the tail (O(n)). Locked, like
/// the coordinator, so both pay for thread-safety.
final class SortedArrayCoordinator: Sendable {
    private struct Entry {
        let deadline: UInt64
        let sequence: UInt64
        let block: @Sendable () -> Void
    }

    private struct State {
        var now: UInt64 = 0
        var nextSequence: UInt64 = 0
        /// Sorted by descending (deadline, sequence): the next block to run is last.
        var entries: [Entry] = []
    }

    private let state = LockedBox(State())

    func schedule(after delay: UInt64, _ block: @escaping @Sendable () -> Void) {
        state.withLock { state in
            let entry = Entry(deadline: state.now + delay, sequence: state.nextSequence, block: block)
            state.nextSequence += 1
            var low = 0
            var high = state.entries.count
            while low < high {
                let middle = (low + high) / 2
                let other = state.entries[middle]
                if (other.deadline, other.sequence) > (entry.deadline, entry.sequence) {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            state.entries.insert(entry, at: low)
        }
    }

    func advance(by duration: UInt64) {
        let target = state.withLock { $0.now + duration }
        while let block = state.withLock({ state -> (@Sendable () -> Void)? in
            guard let last = state.entries.last, last.deadline <= target else { return nil }
            state.entries.removeLast()
            state.now = last.deadline
            return last.block
        }) {
            block()
        }
        state.withLock { $0.now = target }
    }
}
