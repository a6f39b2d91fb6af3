// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// A 4-ary min-heap of scheduling keys, ordered by deadline, then by sequence number (the order of scheduling).
///
/// Why keys only: the work itself (a closure and its queue) stays in a slot array, so sifting moves 24 trivially
/// copyable bytes per step, with no retain or release. A 4-ary heap is half as deep as a binary one, and the four
/// children of a node sit side by side in memory.
struct WorkHeap: Sendable {
    /// When a piece of work is due, its place in the order of scheduling, and where its work is stored.
    struct Key: Sendable {
        var deadline: UInt64
        var sequence: UInt64
        var slot: Int

        /// Whether `self` runs before `other`: an earlier deadline, or the same deadline and scheduled first.
        @inline(__always)
        func precedes(_ other: Key) -> Bool {
            deadline < other.deadline || (deadline == other.deadline && sequence < other.sequence)
        }
    }

    private var keys: [Key] = []

    /// How many keys the heap holds, stale ones (of cancelled work) included.
    var count: Int { keys.count }

    /// The key that runs first. O(1).
    var first: Key? { keys.first }

    /// Adds a key. O(log n).
    mutating func insert(_ key: Key) {
        keys.append(key)
        keys.withUnsafeMutableBufferPointer { Self.siftUp($0, from: $0.count - 1) }
    }

    /// Removes the key that runs first. O(log n).
    ///
    /// - Precondition: the heap is not empty.
    @discardableResult
    mutating func removeFirst() -> Key {
        let last = keys.removeLast()
        guard !keys.isEmpty else { return last }
        let first = keys[0]
        keys.withUnsafeMutableBufferPointer { Self.fillRoot($0, with: last) }
        return first
    }

    /// Keeps only the keys for which `isLive` is true and restores the heap order. O(n).
    mutating func removeAll(where isStale: (Key) -> Bool) {
        keys.removeAll(where: isStale)
        keys.withUnsafeMutableBufferPointer { buffer in
            guard buffer.count > 1 else { return }
            for index in stride(from: (buffer.count - 2) / 4, through: 0, by: -1) { Self.siftDown(buffer, from: index) }
        }
    }

    /// Every key, in no particular order.
    var unorderedKeys: [Key] { keys }

    /// Calls `body` with every key whose deadline is `deadline`, the earliest in the heap (``first``'s), in no
    /// particular order. O(k), for k such keys (stale ones included): a key's children are never earlier, so the walk
    /// goes down only from keys due then. `stack` is the walk's working space, emptied first; pass the same array each
    /// time and the walk allocates nothing once it has grown.
    func forEachKey(dueAt deadline: UInt64, stack: inout [Int], _ body: (Key) -> Void) {
        stack.removeAll(keepingCapacity: true)
        keys.withUnsafeBufferPointer { buffer in
            guard let root = buffer.first, root.deadline == deadline else { return }
            stack.append(0)
            while let index = stack.popLast() {
                body(buffer[index])
                let children = 4 * index + 1
                for child in children..<max(children, min(children + 4, buffer.count))
                where buffer[child].deadline == deadline {
                    stack.append(child)
                }
            }
        }
    }

    /// Calls `body` with every key due by `time` (deadline at or before it), in no particular order. O(k), for k such
    /// keys (stale ones included); `stack` as for ``forEachKey(dueAt:stack:_:)``.
    func forEachKey(dueBy time: UInt64, stack: inout [Int], _ body: (Key) -> Void) {
        stack.removeAll(keepingCapacity: true)
        keys.withUnsafeBufferPointer { buffer in
            guard let root = buffer.first, root.deadline <= time else { return }
            stack.append(0)
            while let index = stack.popLast() {
                body(buffer[index])
                let children = 4 * index + 1
                for child in children..<max(children, min(children + 4, buffer.count))
                where buffer[child].deadline <= time {
                    stack.append(child)
                }
            }
        }
    }

    /// The earliest deadline after `time` among the keys, stale ones included, or `nil` when none is later. O(k) for
    /// the k keys due by `time`: the keys after it that come first are the children of those.
    func firstDeadline(after time: UInt64, stack: inout [Int]) -> UInt64? {
        stack.removeAll(keepingCapacity: true)
        var first: UInt64?
        keys.withUnsafeBufferPointer { buffer in
            guard !buffer.isEmpty else { return }
            stack.append(0)
            while let index = stack.popLast() {
                let deadline = buffer[index].deadline
                guard deadline <= time else {
                    first = min(first ?? .max, deadline)
                    continue
                }
                let children = 4 * index + 1
                for child in children..<max(children, min(children + 4, buffer.count)) { stack.append(child) }
            }
        }
        return first
    }

    private static func siftUp(_ buffer: UnsafeMutableBufferPointer<Key>, from start: Int) {
        let moving = buffer[start]
        var hole = start
        while hole > 0 {
            let parent = (hole - 1) / 4
            guard moving.precedes(buffer[parent]) else { break }
            buffer[hole] = buffer[parent]
            hole = parent
        }
        buffer[hole] = moving
    }

    private static func siftDown(_ buffer: UnsafeMutableBufferPointer<Key>, from start: Int) {
        let moving = buffer[start]
        var hole = start
        while let best = earliestChild(of: hole, in: buffer), buffer[best].precedes(moving) {
            buffer[hole] = buffer[best]
            hole = best
        }
        buffer[hole] = moving
    }

    /// The index of the earliest of `parent`'s (up to four) children, or `nil` when it has none.
    private static func earliestChild(of parent: Int, in buffer: UnsafeMutableBufferPointer<Key>) -> Int? {
        let firstChild = 4 * parent + 1
        guard firstChild < buffer.count else { return nil }
        var best = firstChild
        for child in (firstChild + 1)..<min(firstChild + 4, buffer.count) where buffer[child].precedes(buffer[best]) {
            best = child
        }
        return best
    }

    /// Fills the hole at the root after a removal: moves the smallest child up level by level down to a leaf, without
    /// comparing against `moving` (which came from the bottom and usually belongs near it), then places `moving` there
    /// and sifts it up. Fewer comparisons than ``siftDown(_:from:)`` for the common case.
    private static func fillRoot(_ buffer: UnsafeMutableBufferPointer<Key>, with moving: Key) {
        var hole = 0
        while let best = earliestChild(of: hole, in: buffer) {
            buffer[hole] = buffer[best]
            hole = best
        }
        buffer[hole] = moving
        siftUp(buffer, from: hole)
    }
}
