// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting

/// The floor for a virtual-time coordinator: a plain binary min-heap of (deadline, sequence, closure), written the
/// textbook way, with no queues, no cancellation, no call sites and no timer handles. Locked, like the coordinator, so
/// both pay for thread-safety.
final class BinaryHeapCoordinator: Sendable {
    private struct Entry {
        let deadline: UInt64
        let sequence: UInt64
        let block: @Sendable () -> Void

        func precedes(_ other: Entry) -> Bool {
            deadline < other.deadline || (deadline == other.deadline && sequence < other.sequence)
        }
    }

    private struct State {
        var now: UInt64 = 0
        var nextSequence: UInt64 = 0
        var heap: [Entry] = []

        mutating func push(_ entry: Entry) {
            heap.append(entry)
            var child = heap.count - 1
            while child > 0 {
                let parent = (child - 1) / 2
                guard heap[child].precedes(heap[parent]) else { break }
                heap.swapAt(child, parent)
                child = parent
            }
        }

        mutating func popFirst() -> Entry {
            heap.swapAt(0, heap.count - 1)
            let first = heap.removeLast()
            var parent = 0
            while true {
                let left = 2 * parent + 1
                guard left < heap.count else { break }
                let right = left + 1
                let smaller = right < heap.count && heap[right].precedes(heap[left]) ? right : left
                guard heap[smaller].precedes(heap[parent]) else { break }
                heap.swapAt(parent, smaller)
                parent = smaller
            }
            return first
        }
    }

    private let state = LockedBox(State())

    func schedule(after delay: UInt64, _ block: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.push(Entry(deadline: state.now + delay, sequence: state.nextSequence, block: block))
            state.nextSequence += 1
        }
    }

    func advance(by duration: UInt64) {
        let target = state.withLock { $0.now + duration }
        while let block = state.withLock({ state -> (@Sendable () -> Void)? in
            guard let first = state.heap.first, first.deadline <= target else { return nil }
            state.now = first.deadline
            return state.popFirst().block
        }) {
            block()
        }
        state.withLock { $0.now = target }
    }
}
