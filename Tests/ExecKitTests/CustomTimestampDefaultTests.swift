// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Testing

/// A context of the user's that does not implement `timestamp()` answers `DispatchTime.now()`: a reading taken between
/// two readings of `DispatchTime.now()` lies between them.
@Suite struct CustomTimestampDefaultTests {
    /// Contexts of every type that implement only the seed's requirements, not `timestamp()`.
    static let contexts: [any ExecutionContext] = [
        MinimalSerialContext(), ConcurrentTestContext(), CountingImmediateContext(), ManualSerialContext(),
    ]

    // Guarantees: G-custom-timestamp-default
    @Test func theDefaultTimestampIsDispatchTimeNow() {
        for context in Self.contexts {
            let before = DispatchTime.now()
            let stamp = context.timestamp()
            let after = DispatchTime.now()
            #expect(
                before <= stamp && stamp <= after, "\(type(of: context)): \(stamp) not within [\(before), \(after)]")

            let beforeExec = DispatchTime.now()
            let stampExec = Exec.custom(context).timestamp()
            let afterExec = DispatchTime.now()
            #expect(beforeExec <= stampExec && stampExec <= afterExec, "Exec.custom(\(type(of: context)))")
        }
    }
}
