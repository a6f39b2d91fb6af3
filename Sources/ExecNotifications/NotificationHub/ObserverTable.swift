// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// An immutable snapshot of a hub's observers, keyed by name id: posts read it without a lock, writers build a new
/// one and publish it.
///
/// Observers sit in one flat array, grouped by name, as *unretained* references, so a post copies and retains
/// nothing. The table does not own them: the hub's writer state does while they are registered, and a removed
/// observer is kept alive with the tables replaced after its removal, until no post can still be reading those (see
/// ``PublishedObserverTable``).
///
/// Names map to their run of observers through an open-addressing table with linear probing. Name ids are small,
/// dense integers, so `id & mask` spreads them well and a look-up is an index and a compare, whatever the number of
/// names.
final class ObserverTable: Sendable {
    struct Slot: Sendable {
        /// The name id, ``vacantID`` for a slot never used, or ``removedID`` for one whose name was removed (probes
        /// continue past it).
        var id: Int
        /// Where the name's observers start in `observers`, and how many there are.
        var start: Int
        var count: Int

        static let vacantID = -1
        static let removedID = -2
        static let vacant = Slot(id: vacantID, start: 0, count: 0)
    }

    private let slots: [Slot]
    private let mask: Int
    /// Slots not vacant: names plus removed markers. Kept at most half the capacity so probes stay short.
    private let usedSlots: Int
    private let observers: [Unmanaged<Observer>]

    static let empty = ObserverTable(slots: [Slot](repeating: .vacant, count: 4), usedSlots: 0, observers: [])

    private init(slots: [Slot], usedSlots: Int, observers: [Unmanaged<Observer>]) {
        self.slots = slots
        self.mask = slots.count - 1
        self.usedSlots = usedSlots
        self.observers = observers
    }

    /// The slot index of name `id` in `slots`, or `nil`.
    @inline(__always)
    private static func index(of id: Int, in slots: UnsafeBufferPointer<Slot>, mask: Int) -> Int? {
        var index = id & mask
        while true {
            let found = slots[index].id
            if found == id { return index }
            if found == Slot.vacantID { return nil }
            index = (index + 1) & mask
        }
    }

    /// Calls `body` with the observers of name `id`, in the order they were added; does nothing when there are none.
    ///
    /// - Complexity: O(1) expected, independent of the number of other names. Retains nothing.
    @inline(__always)
    func withObservers(of id: Int, _ body: (UnsafeBufferPointer<Unmanaged<Observer>>) -> Void) {
        let run: Slot? = slots.withUnsafeBufferPointer { slots in
            Self.index(of: id, in: slots, mask: mask).map { slots[$0] }
        }
        guard let run else { return }
        observers.withUnsafeBufferPointer { observers in
            body(UnsafeBufferPointer(rebasing: observers[run.start..<run.start + run.count]))
        }
    }

    /// The number of observers of name `id`.
    func count(of id: Int) -> Int {
        var count = 0
        withObservers(of: id) { count = $0.count }
        return count
    }

    /// A table with `observer` added after the other observers of name `id`.
    ///
    /// - Complexity: O(slots + observers), copying plain words only.
    func adding(_ observer: Observer, to id: Int) -> ObserverTable {
        var slots = self.slots
        var observers = self.observers
        var usedSlots = self.usedSlots
        let existing = slots.withUnsafeBufferPointer { Self.index(of: id, in: $0, mask: mask) }
        if let existing {
            let end = slots[existing].start + slots[existing].count
            observers.insert(Unmanaged.passUnretained(observer), at: end)
            slots[existing].count += 1
            for index in slots.indices where slots[index].id >= 0 && slots[index].start >= end && index != existing {
                slots[index].start += 1
            }
        } else {
            let run = Slot(id: id, start: observers.count, count: 1)
            observers.append(Unmanaged.passUnretained(observer))
            if (usedSlots + 1) * 2 > slots.count {
                slots = Self.rehash(slots.filter { $0.id >= 0 } + [run], capacity: slots.count * 2)
                usedSlots = slots.lazy.filter { $0.id >= 0 }.count
            } else {
                var index = id & mask
                while slots[index].id >= 0 { index = (index + 1) & mask }  // reuses a removed slot on the way
                if slots[index].id == Slot.vacantID { usedSlots += 1 }
                slots[index] = run
            }
        }
        return ObserverTable(slots: slots, usedSlots: usedSlots, observers: observers)
    }

    /// A table without `observer`, or `nil` when it is not in the table.
    ///
    /// - Complexity: O(slots + observers), copying plain words only.
    func removing(_ observer: Observer, from id: Int) -> ObserverTable? {
        guard let existing = slots.withUnsafeBufferPointer({ Self.index(of: id, in: $0, mask: mask) }) else {
            return nil
        }
        let run = slots[existing]
        let target = Unmanaged.passUnretained(observer).toOpaque()
        guard
            let position = (run.start..<run.start + run.count).first(where: { self.observers[$0].toOpaque() == target })
        else { return nil }
        var slots = self.slots
        var observers = self.observers
        observers.remove(at: position)
        for index in slots.indices where slots[index].id >= 0 && slots[index].start > run.start {
            slots[index].start -= 1
        }
        slots[existing].count -= 1
        if slots[existing].count == 0 { slots[existing] = Slot(id: Slot.removedID, start: 0, count: 0) }
        return ObserverTable(slots: slots, usedSlots: usedSlots, observers: observers)
    }

    private static func rehash(_ runs: [Slot], capacity: Int) -> [Slot] {
        var slots = [Slot](repeating: .vacant, count: capacity)
        let mask = capacity - 1
        for run in runs {
            var index = run.id & mask
            while slots[index].id != Slot.vacantID { index = (index + 1) & mask }
            slots[index] = run
        }
        return slots
    }
}
