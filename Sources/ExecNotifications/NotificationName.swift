// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// The name of a notification whose posts carry a `Payload`, so observers receive a typed value and never cast.
///
/// ```swift
/// extension NotificationName where Payload == Int {
///     static let counterChanged = NotificationName("Counter.changed")
/// }
/// hub.post(.counterChanged, payload: 42)
/// ```
///
/// Two names are equal when their strings are equal; names with the same string but different payload types are
/// different notifications (they are different Swift types, and a hub keeps their observers apart).
/// <!-- G-hub-name-typed -->
///
/// - Cost: creating a name looks its string up in a process-wide table under a lock (once per distinct name, the
///   table keeps an entry for the process's life), so create names once, typically as `static let`s, and reuse them.
///   Copying, comparing and hashing a name is cheap; posting with it does no string work at all.
///   <!-- G-hub-name-cost -->
/// - Thread-safety: a value type; names may be created and used from any thread. <!-- G-hub-name-any-thread -->
public struct NotificationName<Payload>: Hashable, Sendable, CustomStringConvertible {
    /// The string the name was created with.
    public let rawValue: String

    /// A small process-wide number standing for the pair (string, `Payload` type); hubs index observers by it.
    @usableFromInline
    let id: Int

    /// Creates the name of a notification carrying a `Payload`.
    ///
    /// - Complexity: a hash-table look-up of `name` under a lock.
    public init(_ name: String) {
        rawValue = name
        id = NameRegistry.id(for: name, payload: Payload.self)
    }

    public var description: String { rawValue }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }

    public func hash(into hasher: inout Hasher) { hasher.combine(id) }
}
