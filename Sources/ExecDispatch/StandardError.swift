// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// How ExecKit's modules write a warning: one `write` of the whole line to standard error, with no Foundation and no
/// buffering, so the line appears whole even when the program stops right after.
package enum StandardError {
    /// Writes `line` (which should end with a newline) to standard error.
    package static func write(_ line: String) {
        _ = line.utf8CString.withUnsafeBufferPointer { bytes in
            #if canImport(Darwin)
            Darwin.write(STDERR_FILENO, bytes.baseAddress, bytes.count - 1)
            #elseif canImport(Glibc)
            Glibc.write(STDERR_FILENO, bytes.baseAddress, bytes.count - 1)
            #elseif canImport(Musl)
            Musl.write(STDERR_FILENO, bytes.baseAddress, bytes.count - 1)
            #endif
        }
    }
}
