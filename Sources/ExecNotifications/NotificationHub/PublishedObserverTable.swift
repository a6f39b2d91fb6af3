// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
@_spi(ExecTesting) import ExecMutex
import Synchronization

/// The hub's current ``ObserverTable``, read without a lock and replaced under one; it also owns the observers.
///
/// Why unmanaged references: a post must read the table without taking a lock (a lock and unlock alone cost about as
/// much as the rest of a post), so the current table sits in an `Atomic` as an unretained pointer, and the table
/// refers to its observers unretained too, so that reading it retains nothing. The danger is a writer releasing a
/// table (or a removed observer) that a reader has just loaded. Readers therefore announce themselves in `readers`
/// *before* loading the pointer, and a writer releases a replaced table, and the observers removed with it, only
/// once it has seen `readers` at zero *after* replacing it: every reader that could have loaded the old pointer
/// announced itself before the replacement, so a zero read afterwards proves they have all left. The four operations
/// involved are sequentially consistent, which is what makes "announce, then load" and "replace, then check" see each
/// other.
///
/// Replaced tables wait in `Writer.retired` until a writer, or the last reader to leave, sees no reader. A reader that
/// stays (an observer block that blocks) only delays that; nothing is released early. A leaving reader only *tries*
/// the writer lock; when that fails, the holder checks for readers again after unlocking, so garbage is not left
/// behind until the next post or write.
///
/// Consequence for users: while any post of the hub is in flight (including one whose `.direct` observer block is
/// still running, or blocked), observers cancelled meanwhile stay alive, and with them their closures and everything
/// those capture; they are released when the last such post ends (or the next write after it).
///
/// Releasing observers releases user closures, whose captures may run arbitrary `deinit`s that call back into the
/// hub; so garbage is always released after the writer lock is unlocked.
final class PublishedObserverTable: Sendable {
    private struct Writer {
        /// The registered observers, owned here while they are in the current table; each knows its index.
        var registered: [Observer] = []
        /// Replaced tables, and observers removed since, that a reader may still be using.
        var retired = Garbage()
    }

    /// What waits for the readers to leave.
    private struct Garbage {
        /// Tables may be released under the writer lock: they hold only plain words.
        var tables: [Unmanaged<ObserverTable>] = []
        /// Observers must be released after unlocking: that may run user code.
        var observers: [Observer] = []

        var isEmpty: Bool { tables.isEmpty && observers.isEmpty }
    }

    /// Observers to release once the writer lock is unlocked; usually none or one, so no array is allocated for them.
    private enum Released {
        case none
        case one(Observer)
        case many([Observer])
    }

    private let current: Atomic<Unmanaged<ObserverTable>>
    private let readers = Atomic<Int>(0)
    private let hasRetired = Atomic<Bool>(false)
    /// A pthread mutex rather than `Synchronization.Mutex`, which the Thread Sanitizer cannot see through on Linux.
    private let writer = LockedBox(Writer(), observed: false)

    init() {
        current = Atomic(Unmanaged.passRetained(ObserverTable.empty))
    }

    deinit {
        // No reader can be inside: each holds the hub, and the hub holds this.
        current.load(ordering: .acquiring).release()
        writer.withLock { $0.retired.tables.forEach { $0.release() } }
    }

    /// Runs `body` on the current table, without a lock.
    ///
    /// - Cost: two uncontended atomic read-modify-writes and a load, plus `body`.
    @inline(__always)
    func read(_ body: (ObserverTable) -> Void) {
        readers.wrappingAdd(1, ordering: .sequentiallyConsistent)
        defer {
            let left = readers.wrappingSubtract(1, ordering: .sequentiallyConsistent).newValue
            if left == 0 && hasRetired.load(ordering: .sequentiallyConsistent) { releaseRetiredIfUnread() }
        }
        current.load(ordering: .sequentiallyConsistent)._withUnsafeGuaranteedRef(body)
    }

    /// Registers `observer` under name `id`, after the others.
    func add(_ observer: Observer, to id: Int) {
        let released = writer.withLock { writer in
            observer.registryIndex = writer.registered.count
            writer.registered.append(observer)
            return replace(&writer) { $0.adding(observer, to: id) }
        }
        _ = consume released
        releaseRetiredIfIdle()
    }

    /// Unregisters `observer`, if it is registered under name `id`.
    func remove(_ observer: Observer, from id: Int) {
        let released = writer.withLock { writer -> Released in
            let index = observer.registryIndex
            guard index >= 0 else { return .none }
            // Swap-remove in O(1), keeping the moved observer's index right.
            let last = writer.registered.removeLast()
            if last !== observer {
                writer.registered[index] = last
                last.registryIndex = index
            }
            observer.registryIndex = -1
            writer.retired.observers.append(observer)
            return replace(&writer) { $0.removing(observer, from: id) }
        }
        _ = consume released  // released here, after unlocking
        releaseRetiredIfIdle()
    }

    /// The registered observers, copied under the writer lock, so the caller can act on them after unlocking.
    func registeredObservers() -> [Observer] {
        writer.withLock { $0.registered }
    }

    /// Publishes `transform(current)` in place of the current table (unless `nil`) and returns what to release after
    /// unlocking.
    private func replace(_ writer: inout Writer, _ transform: (ObserverTable) -> ObserverTable?) -> Released {
        let old = current.load(ordering: .relaxed)  // only writers store, and they hold the lock
        if let next = old._withUnsafeGuaranteedRef(transform) {
            current.store(Unmanaged.passRetained(next), ordering: .sequentiallyConsistent)
            writer.retired.tables.append(old)
        }
        return takeRetiredIfUnread(&writer)
    }

    private func takeRetiredIfUnread(_ writer: inout Writer) -> Released {
        defer { hasRetired.store(!writer.retired.isEmpty, ordering: .sequentiallyConsistent) }
        // Under the lock nothing is being replaced, so everything retired was replaced before this check.
        guard readers.load(ordering: .sequentiallyConsistent) == 0 else { return .none }
        for table in writer.retired.tables { table.release() }
        writer.retired.tables.removeAll(keepingCapacity: true)
        switch writer.retired.observers.count {
        case 0: return .none
        case 1: return .one(writer.retired.observers.removeLast())  // keeps the array's capacity
        default:
            defer { writer.retired.observers = [] }
            return .many(writer.retired.observers)
        }
    }

    /// The last reader to leave releases replaced tables, so a hub that is posted to continuously still frees them.
    ///
    /// Never waits: a post must not block on a writer. When the lock is busy, its holder is responsible: every
    /// holder that leaves garbage behind (a writer, or this method) checks again for readers after unlocking.
    private func releaseRetiredIfUnread() {
        while true {
            guard let released = writer.tryWithLock({ takeRetiredIfUnread(&$0) }) else { return }
            _ = consume released  // released here, after unlocking
            // A reader that left while this held the lock may have failed its own attempt: look again.
            guard hasRetired.load(ordering: .sequentiallyConsistent),
                readers.load(ordering: .sequentiallyConsistent) == 0
            else { return }
        }
    }

    /// After a writer unlocks: releases what it left retired if no reader remains. A reader that left while the
    /// writer held the lock found it busy and released nothing, so without this the garbage would wait for the next
    /// post or write. (Sequentially consistent: the writer stores `hasRetired`, then loads `readers`; a leaving reader
    /// decrements `readers`, then loads `hasRetired`; at least one of them sees the other.)
    private func releaseRetiredIfIdle() {
        guard hasRetired.load(ordering: .sequentiallyConsistent),
            readers.load(ordering: .sequentiallyConsistent) == 0
        else { return }
        releaseRetiredIfUnread()
    }
}
