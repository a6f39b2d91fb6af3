// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

#if canImport(Runtime)
#if canImport(Darwin)
// Weak: Apple platforms ship libswiftRuntime from macOS 26 and its siblings, and the package supports older ones, where
// a hard link would stop a test bundle from loading. Every use is behind `#available`.
@_weakLinked import Runtime
#else
import Runtime
@_spi(ExecTesting) import ExecMutex
#endif
#endif

/// Where a piece of work was scheduled: the return addresses on the scheduling thread's stack, and the resume points of
/// its async callers, read when it was scheduled (``CallPathCache``), resolved to a source line only when something
/// reads ``PendingWork/callSite`` (a `description`, a failing `assertNoPendingWork`), and then once.
///
/// Why the stack: work reaches the coordinator through the `ExecutionContext`, `TaskExecutor` and `Clock`
/// requirements, which carry no `#fileID`/`#line`, so only the stack knows who called. Reading it is ExecTesting's own
/// walk, which never faults (issue #38: the `Runtime` module's `Backtrace.capture` followed a frame that keeps no frame
/// pointer into the heap and crashed); finding source lines costs milliseconds, so that waits for a report, and each
/// return address is looked up once per process (``AddressVerdicts``).
final class RecordedCallSite: Sendable {
    /// The return addresses on the thread's stack, innermost first, up to the one into the async function the thread
    /// was running, if any.
    private let returnAddresses: [UInt]
    /// The resume points of the async callers of the async function the thread was running, innermost first; empty
    /// when it ran none.
    private let resumePoints: [UInt]
    /// The resolved call site: `nil` until resolved, then `.some(nil)` when no frame qualifies.
    private let resolved = LockedBox<PendingWork.CallSite??>(nil, observed: false)

    init(returnAddresses: UnsafeBufferPointer<UInt>, resumePoints: UnsafeBufferPointer<UInt>) {
        self.returnAddresses = Array(returnAddresses)
        self.resumePoints = Array(resumePoints)
    }

    /// The calling thread's call site, or `nil` where the toolchain's `Runtime` module (SE-0419), which finds source
    /// lines, is missing or unavailable.
    ///
    /// - Cost: a stack walk and a look-up, 750 to 1,500 instructions with the depth of the stack and no allocation,
    ///   for a call path seen before. A new path keeps its addresses (8 allocations, about 2 µs); on a task's thread
    ///   its addresses are also looked up by name once each. Where `perform` or a clock sleep schedules, reading the
    ///   caller's async contexts costs a checked read, a system call (2 to 5 µs). Nothing is symbolicated here.
    static func capture() -> RecordedCallSite? {
        #if canImport(Runtime)
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            return CallPathCache.site()
        }
        #endif
        return nil
    }

    /// The innermost frame that has a source line and belongs to none of ExecKit's modules, the standard library,
    /// the Swift runtime or a system library (``CallSiteFilter``); `nil` when none does (code built without debug
    /// information, or a caller deeper than the frames read).
    ///
    /// - Cost: the first read symbolicates the stack unless every return address on the way to the caller was
    ///   looked up before (tens of milliseconds in a test binary of 15 MB); later reads return the stored answer.
    var callSite: PendingWork.CallSite? {
        if let cached = resolved.withLock({ $0 }) { return cached }
        let callSite = resolve()
        resolved.withLock { $0 = .some(callSite) }
        return callSite
    }

    private func resolve() -> PendingWork.CallSite? {
        #if canImport(Runtime)
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *),
            let backtrace = Backtrace.decoded(
                returnAddresses.map { (.returnAddress, $0) } + resumePoints.map { (.asyncResumePoint, $0) })
        {
            return AddressVerdicts.callSite(in: backtrace)
        }
        #endif
        return nil
    }
}
