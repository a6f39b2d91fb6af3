// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// A concurrent engine's due timers waiting for the jobs that run them, first in first out: a ring buffer that grows
/// with the number of timers waiting at once, never with the number fired.
///
/// Not thread-safe: the owning ``TimerSchedule`` is touched only with its engine's lock held.
struct ReadyTimers {
    /// One due timer, not retained (releasing its last handle still cancels it): a one-shot's `cancel` empties its
    /// entry (under the engine's lock) before the timer can be freed, and a periodic one is dereferenced only while the
    /// schedule lists it as running with this sequence. `timer` is `nil` once the entry is emptied.
    struct Entry {
        var timer: Unmanaged<EngineTimer>?
        let sequence: UInt64
        let isPeriodic: Bool

        static let empty = Entry(timer: nil, sequence: 0, isPeriodic: false)
    }

    /// The entries, `slots.count` a power of two (or zero); the waiting ones are `count` slots from `head`, wrapping.
    private var slots: [Entry] = []
    private var head = 0
    /// The number of entries waiting, emptied ones included (each still has a job coming to take it).
    private(set) var count = 0

    /// Storage kept between bursts, in entries; a burst that grew the buffer past it gives the storage back once
    /// every entry is taken.
    private static let keptCapacity = 1_024

    /// Adds `entry` at the back. Amortized O(1).
    mutating func append(_ entry: Entry) {
        if count == slots.count { grow() }
        slots[(head + count) & (slots.count - 1)] = entry
        count += 1
    }

    /// Takes the front entry; there must be one. O(1).
    mutating func removeFirst() -> Entry {
        precondition(count > 0, "ExecKit: a timer job found the ready list empty")
        let entry = slots[head]
        slots[head] = .empty
        head = (head + 1) & (slots.count - 1)
        count -= 1
        if count == 0 {
            head = 0
            if slots.count > Self.keptCapacity { slots = [] }
        }
        return entry
    }

    /// Empties the entry of `timer` scheduled with `sequence`, so that its job finds nothing. O(n) in the entries
    /// waiting.
    ///
    /// - Returns: Whether there was one.
    @discardableResult
    mutating func empty(_ timer: Unmanaged<EngineTimer>, sequence: UInt64) -> Bool {
        let mask = slots.count - 1
        for offset in 0..<count {
            let position = (head + offset) & mask
            if slots[position].timer?.toOpaque() == timer.toOpaque() && slots[position].sequence == sequence {
                slots[position].timer = nil
                return true
            }
        }
        return false
    }

    private mutating func grow() {
        var larger = [Entry](repeating: .empty, count: max(16, slots.count * 2))
        for offset in 0..<count { larger[offset] = slots[(head + offset) & (slots.count - 1)] }
        slots = larger
        head = 0
    }
}
