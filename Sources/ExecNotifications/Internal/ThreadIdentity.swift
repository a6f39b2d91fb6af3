// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The calling thread's identity as a number, to tell "cancelled from inside the observer's own block" (which must
/// not wait for itself) from "cancelled from another thread" (which waits for the running block).
enum ThreadIdentity {
    static var current: UInt {
        #if canImport(Glibc)
        return UInt(pthread_self())
        #else
        return UInt(bitPattern: Int(bitPattern: pthread_self()))
        #endif
    }
}
