// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Testing

// Exit tests (and `Process`) exist on macOS, Linux and Windows only: the test targets also build for iOS, tvOS,
// watchOS and visionOS without them.
#if os(macOS) || os(Linux) || os(Windows)

extension Optional where Wrapped == ExitTest.Result {
    /// What the exited process wrote to standard error, as text; empty when the exit test did not run.
    var standardErrorText: String {
        String(decoding: self?.standardErrorContent ?? [], as: UTF8.self)
    }
}
#endif
