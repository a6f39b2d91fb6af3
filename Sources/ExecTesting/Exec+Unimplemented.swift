// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

public import ExecKit

extension Exec {
    /// A context that must never be used: `invoke`, `invokeAsync`, `invokeSync`, timers, `task` and its task
    /// executor's jobs stop the program with a message naming `name` and the file and line where the test made it.
    /// <!-- G-virtual-unimplemented-stops -->
    ///
    /// Pass it to code under test to prove a path never schedules work in that context; check the crash itself with a
    /// Swift Testing exit test (`#expect(processExitsWith: .failure) { … }`). Reading `type`, `isCurrent` (`false`)
    /// or `timestamp()` does not fail. <!-- G-virtual-unimplemented-readable -->
    ///
    /// - Thread-safety: may be used from any thread. Cost: one allocation. <!-- G-thread-safety-any-thread -->
    public static func unimplemented(
        _ name: String = "unimplemented",
        fileID: StaticString = #fileID,
        line: UInt = #line
    ) -> Exec {
        .custom(UnimplementedContext(name: name, fileID: fileID, line: line))
    }
}
