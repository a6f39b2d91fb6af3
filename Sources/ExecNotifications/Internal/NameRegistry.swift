// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

@_spi(ExecTesting) import ExecMutex

/// Hands out one small integer per (name string, payload type), so that a post never hashes a string.
///
/// Entries are never removed: a process has a bounded set of notification names in practice, and each costs one
/// dictionary entry.
enum NameRegistry {
    private struct Key: Hashable {
        let name: String
        let payload: ObjectIdentifier
    }

    private static let ids = LockedBox<[Key: Int]>([:], observed: false)

    static func id(for name: String, payload: Any.Type) -> Int {
        let key = Key(name: name, payload: ObjectIdentifier(payload))
        return ids.withLock { ids in
            if let id = ids[key] { return id }
            let id = ids.count
            ids[key] = id
            return id
        }
    }
}
