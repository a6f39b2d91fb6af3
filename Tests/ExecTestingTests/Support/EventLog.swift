// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting

/// An append-only list of events that any thread may write; tests compare it with what they expect.
final class EventLog: Sendable {
    private let events = LockedBox<[String]>([])

    func append(_ event: String) { events.withLock { $0.append(event) } }

    var entries: [String] { events.withLock { $0 } }
}

/// A value that any thread may read and replace.
final class Shared<Value: Sendable>: Sendable {
    private let box: LockedBox<Value>

    init(_ value: Value) { box = LockedBox(value) }

    var value: Value {
        get { box.withLock { $0 } }
        set { box.withLock { $0 = newValue } }
    }

    @discardableResult
    func update<R>(_ body: (inout Value) -> R) -> R { box.withLock(body) }
}

/// An object whose release a test can observe through a weak reference.
final class Token: Sendable {}

extension TestCoordinator {
    /// Virtual time since the coordinator started, in nanoseconds.
    var elapsedNanoseconds: UInt64 {
        let (seconds, attoseconds) = elapsed.components
        return UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
    }

    /// Virtual time since the coordinator started, in seconds, for readable logs.
    var seconds: Double {
        let (seconds, attoseconds) = elapsed.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
