// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

#if canImport(Darwin)
public import Darwin
#elseif canImport(Glibc)
public import Glibc
#elseif canImport(Musl)
public import Musl
#endif

/// The calling thread's `pthread_t` as an integer, for cheap "is this the same thread" comparisons.
///
/// Only meaningful while the thread lives; never zero for a live thread.
@usableFromInline
package enum ThreadIdentity {
    @inlinable
    package static var current: UInt {
        #if canImport(Glibc)
        return UInt(pthread_self())
        #else
        return UInt(bitPattern: Int(bitPattern: pthread_self()))
        #endif
    }
}
