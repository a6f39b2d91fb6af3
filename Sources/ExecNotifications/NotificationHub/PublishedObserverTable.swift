// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Synchronization

/// The hub's current ``ObserverTable``, read without a lock and replaced under one.
///
/// Why unmanaged references: a post must read the table without taking a lock (a lock and unlock alone cost about as
/// much as the rest of a post), so the current table sits in an `Atomic` as an unretained pointer. The danger is a
/// writer releasing a table that a reader has just loaded. Readers therefore announce themselves in `readers`
/// *before* loading the pointer, and a writer releases a replaced table only once it has seen `readers` at zero
/// *after* replacing it: every reader that could have loaded the old pointer announced itself before the
/// replacement, so a zero read afterwards proves they have all left. All four operations are sequentially
/// consistent, which is what makes "announce, then load" and "replace, then check" see each other.
///
/// Replaced tables wait in `retired` until a writer, or the last reader to leave, sees no reader. A reader that stays
/// (an observer block that blocks) only delays that; nothing is released early.
///
/// Releasing a table can release observers and with them user closures, whose captures may run arbitrary `deinit`s
/// that call back into the hub; so tables are always released after the writer lock is unlocked.
final class PublishedObserverTable: Sendable {
    private let current: Atomic<Unmanaged<ObserverTable>>
    private let readers = Atomic<Int>(0)
    private let hasRetired = Atomic<Bool>(false)
    private let retired = Mutex<[Unmanaged<ObserverTable>]>([])

    init() {
        current = Atomic(Unmanaged.passRetained(ObserverTable.empty))
    }

    deinit {
        // No reader can be inside: each holds the hub, and the hub holds this.
        current.load(ordering: .acquiring).release()
        for table in retired.withLock({ $0 }) { table.release() }
    }

    /// Runs `body` on the current table, without a lock.
    ///
    /// - Cost: two uncontended atomic read-modify-writes and a load, plus `body`.
    @inline(__always)
    func read(_ body: (ObserverTable) -> Void) {
        readers.wrappingAdd(1, ordering: .sequentiallyConsistent)
        defer {
            let left = readers.wrappingSubtract(1, ordering: .sequentiallyConsistent).newValue
            if left == 0 && hasRetired.load(ordering: .relaxed) { releaseRetiredIfUnread() }
        }
        current.load(ordering: .sequentiallyConsistent)._withUnsafeGuaranteedRef(body)
    }

    /// Replaces the current table with `transform(current)`, unless that is `nil`; returns whether it did.
    ///
    /// Writers are serialized; `transform` runs under the writer lock, so it must not call back into the hub.
    @discardableResult
    func update(_ transform: (ObserverTable) -> ObserverTable?) -> Bool {
        var garbage: [Unmanaged<ObserverTable>] = []
        let updated = retired.withLock { retired in
            let old = current.load(ordering: .relaxed)  // only writers store, and they hold this lock
            guard let next = old._withUnsafeGuaranteedRef(transform) else { return false }
            current.store(Unmanaged.passRetained(next), ordering: .sequentiallyConsistent)
            retired.append(old)
            if readers.load(ordering: .sequentiallyConsistent) == 0 { swap(&garbage, &retired) }
            hasRetired.store(!retired.isEmpty, ordering: .relaxed)
            return true
        }
        for table in garbage { table.release() }
        return updated
    }

    /// The last reader to leave releases replaced tables, so a hub that is posted to continuously still frees them.
    private func releaseRetiredIfUnread() {
        var garbage: [Unmanaged<ObserverTable>] = []
        // Never wait here: a post must not block on a writer. If the lock is busy, that writer checks for readers.
        _ = retired.withLockIfAvailable { retired in
            // Under the lock no table is being replaced, so every retired table was replaced before this check.
            if readers.load(ordering: .sequentiallyConsistent) == 0 { swap(&garbage, &retired) }
            hasRetired.store(!retired.isEmpty, ordering: .relaxed)
        }
        for table in garbage { table.release() }
    }
}
