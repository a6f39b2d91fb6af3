// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// An immutable snapshot of a hub's observers, keyed by name id: posts read it without a lock, writers build a new
/// one and publish it.
///
/// An open-addressing table with linear probing. Name ids are small, dense integers, so `id & mask` spreads them
/// well and a look-up is an index and a compare, whatever the number of names.
final class ObserverTable: Sendable {
    /// `ids[slot]` names the observers in `lists[slot]`; `-1` marks an empty slot.
    private let ids: [Int]
    private let lists: [[Observer]]
    private let mask: Int

    static let empty = ObserverTable(entries: [])

    private init(entries: [(id: Int, observers: [Observer])]) {
        var capacity = 4
        while capacity < entries.count * 2 { capacity *= 2 }
        var ids = [Int](repeating: -1, count: capacity)
        var lists = [[Observer]](repeating: [], count: capacity)
        let mask = capacity - 1
        for entry in entries {
            var slot = entry.id & mask
            while ids[slot] != -1 { slot = (slot + 1) & mask }
            ids[slot] = entry.id
            lists[slot] = entry.observers
        }
        self.ids = ids
        self.lists = lists
        self.mask = mask
    }

    /// Calls `body` with the observers of name `id`, in the order they were added; does nothing when there are none.
    ///
    /// - Complexity: O(1) expected, independent of the number of other names.
    @inline(__always)
    func withObservers(of id: Int, _ body: (UnsafeBufferPointer<Observer>) -> Void) {
        ids.withUnsafeBufferPointer { ids in
            var slot = id & mask
            while true {
                let found = ids[slot]
                if found == id { break }
                if found == -1 { return }
                slot = (slot + 1) & mask
            }
            lists.withUnsafeBufferPointer { lists in
                lists[slot].withUnsafeBufferPointer(body)
            }
        }
    }

    /// The observers of name `id`.
    func observers(of id: Int) -> [Observer] {
        var result: [Observer] = []
        withObservers(of: id) { result = Array($0) }
        return result
    }

    /// Every observer, of every name.
    var allObservers: [Observer] { lists.flatMap { $0 } }

    private var entries: [(id: Int, observers: [Observer])] {
        zip(ids, lists).filter { $0.0 != -1 }.map { (id: $0.0, observers: $0.1) }
    }

    /// A table with `observer` added after the other observers of name `id`.
    ///
    /// - Complexity: O(names + observers of `id`).
    func adding(_ observer: Observer, to id: Int) -> ObserverTable {
        var entries = self.entries
        if let index = entries.firstIndex(where: { $0.id == id }) {
            entries[index].observers.append(observer)
        } else {
            entries.append((id: id, observers: [observer]))
        }
        return ObserverTable(entries: entries)
    }

    /// A table without `observer`, or `nil` when it is not in the table.
    ///
    /// - Complexity: O(names + observers of `id`).
    func removing(_ observer: Observer, from id: Int) -> ObserverTable? {
        var entries = self.entries
        guard let index = entries.firstIndex(where: { $0.id == id }),
              let position = entries[index].observers.firstIndex(where: { $0 === observer })
        else { return nil }
        entries[index].observers.remove(at: position)
        if entries[index].observers.isEmpty { entries.remove(at: index) }
        return ObserverTable(entries: entries)
    }
}
