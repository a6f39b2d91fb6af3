// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// The pending timers of one ``TimerEngine``: a 4-ary min-heap ordered by deadline, ties by scheduling sequence.
///
/// Why 4-ary: a schedule+cancel of a far-future timeout is an insert at the bottom (usually no move at all) and a
/// removal that moves the last element into the hole; with four children per node the tree is half as deep as a binary
/// heap, and the extra comparisons of a sift-down touch neighbouring slots. (Go's runtime timers make the same choice.)
///
/// Why unretained references: the heap must not keep a timer alive, because releasing the timer's ``Lifetime`` is how
/// a caller cancels it. A timer removes itself (under the engine's lock) in `cancel()` and in `deinit`, so every
/// reference in the heap is to a live timer. Each timer records its own position (``EngineTimer/index``), which makes
/// removal O(log n) with no search.
///
/// Not thread-safe: the owning engine touches it only with its lock held.
struct TimerHeap: ~Copyable {
    private var slots: UnsafeMutablePointer<Unmanaged<EngineTimer>>
    private var capacity: Int
    /// The number of pending timers.
    private(set) var count = 0

    init() {
        capacity = 16
        slots = .allocate(capacity: capacity)
    }

    deinit { slots.deallocate() }

    var isEmpty: Bool { count == 0 }

    /// The timer with the earliest deadline (ties: the one scheduled first), or `nil` when empty.
    ///
    /// Unretained, like every timer the heap hands out: a timer whose last handle was just released may be waiting
    /// for the engine's lock in its `deinit`, and retaining it then would be fatal. Read it with
    /// `_withUnsafeGuaranteedRef`, lock held.
    ///
    /// - Complexity: O(1).
    var first: Unmanaged<EngineTimer>? { count == 0 ? nil : slots[0] }

    /// The timer at heap position `position` (`0..<count`), for the engine's leeway scan.
    subscript(position: Int) -> Unmanaged<EngineTimer> { slots[position] }

    /// Adds `timer`, which must not be in any heap.
    ///
    /// - Complexity: O(log n); amortized O(1) moves for a deadline later than most (the usual timeout).
    mutating func insert(_ timer: Unmanaged<EngineTimer>) {
        if count == capacity { grow() }
        count += 1
        siftUp(timer, from: count - 1)
    }

    /// Removes and returns the earliest timer; the heap must not be empty. Its ``EngineTimer/index`` is left for the
    /// caller to set.
    ///
    /// - Complexity: O(log n).
    mutating func removeFirst() -> Unmanaged<EngineTimer> {
        let first = slots[0]
        remove(at: 0)
        return first
    }

    /// Removes the timer at heap position `position`. Its ``EngineTimer/index`` is left for the caller to set.
    ///
    /// - Complexity: O(log n).
    mutating func remove(at position: Int) {
        count -= 1
        if position == count { return }
        let last = slots[count]
        // The last element fills the hole; it moves up if it is earlier than the hole's parent, otherwise down.
        if position > 0 && Self.isEarlier(last, than: slots[(position - 1) / 4]) {
            siftUp(last, from: position)
        } else {
            siftDown(last, from: position)
        }
    }

    /// Places `element` at `position` or above, moving later parents down.
    private mutating func siftUp(_ element: Unmanaged<EngineTimer>, from position: Int) {
        var hole = position
        while hole > 0 {
            let parent = (hole - 1) / 4
            guard Self.isEarlier(element, than: slots[parent]) else { break }
            place(slots[parent], at: hole)
            hole = parent
        }
        place(element, at: hole)
    }

    /// Places `element` at `position` or below, moving earlier children up.
    private mutating func siftDown(_ element: Unmanaged<EngineTimer>, from position: Int) {
        var hole = position
        while true {
            let firstChild = hole * 4 + 1
            if firstChild >= count { break }
            var earliest = firstChild
            var child = firstChild + 1
            let end = min(firstChild + 4, count)
            while child < end {
                if Self.isEarlier(slots[child], than: slots[earliest]) { earliest = child }
                child += 1
            }
            guard Self.isEarlier(slots[earliest], than: element) else { break }
            place(slots[earliest], at: hole)
            hole = earliest
        }
        place(element, at: hole)
    }

    @inline(__always)
    private func place(_ element: Unmanaged<EngineTimer>, at position: Int) {
        (slots + position).initialize(to: element)
        element._withUnsafeGuaranteedRef { $0.index.store(Int32(truncatingIfNeeded: position), ordering: .relaxed) }
    }

    @inline(__always)
    private static func isEarlier(_ left: Unmanaged<EngineTimer>, than right: Unmanaged<EngineTimer>) -> Bool {
        left._withUnsafeGuaranteedRef { left in
            right._withUnsafeGuaranteedRef { right in
                left.deadline < right.deadline || (left.deadline == right.deadline && left.sequence < right.sequence)
            }
        }
    }

    private mutating func grow() {
        precondition(capacity < Int(Int32.max / 2), "ExecKit: more than a billion timers pending on one queue")
        let larger = UnsafeMutablePointer<Unmanaged<EngineTimer>>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: slots, count: count)
        slots.deallocate()
        slots = larger
        capacity *= 2
    }

    /// Gives back the storage of a heap that grew large and is empty again (down to the initial 16 slots).
    mutating func shrinkIfEmpty() {
        guard count == 0, capacity > 16 else { return }
        slots.deallocate()
        capacity = 16
        slots = .allocate(capacity: capacity)
    }
}
