// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

#if canImport(Runtime)
#if canImport(Darwin)
// Weak: Apple platforms ship libswiftRuntime from macOS 26 and its siblings, and the package supports older ones, where
// a hard link would stop a test bundle from loading. Every use is behind `#available`.
@_weakLinked import Runtime
#else
import Runtime
#endif
#endif

/// Where a piece of work was scheduled: the call stack captured when it was, resolved to a source line only when
/// something reads ``PendingWork/callSite`` (a `description`, a failing `assertNoPendingWork`), and then once.
///
/// Why a backtrace: work reaches the coordinator through the `ExecutionContext`, `TaskExecutor` and `Clock`
/// requirements, which carry no `#fileID`/`#line`, so only the stack knows who called. Capturing return addresses
/// costs microseconds; finding their source lines costs tens of milliseconds per symbolication (the toolchain's
/// `Runtime` module reads the binary's line tables afresh each time), so that waits for a report, and each return
/// address is looked up once per process (``AddressVerdicts``).
final class RecordedCallSite: Sendable {
    /// The captured `Runtime.Backtrace`, typed `any Sendable` because a stored property cannot have a type that is
    /// unavailable on some of the package's deployment targets (macOS before 26).
    private let backtrace: any Sendable
    /// The resolved call site: `nil` until resolved, then `.some(nil)` when no frame qualifies.
    private let resolved = LockedBox<PendingWork.CallSite??>(nil)

    /// The last return address on the thread's stack before the backtrace continues through async frames (the return
    /// address into the async function the thread is running), or `nil` when it has none: where a call path stops
    /// telling callers apart (see ``CallPathCache``).
    let asyncBoundary: UInt?

    private init(backtrace: any Sendable, asyncBoundary: UInt?) {
        self.backtrace = backtrace
        self.asyncBoundary = asyncBoundary
    }

    /// The calling thread's call site, or `nil` where the toolchain's `Runtime` module (SE-0419) is missing or
    /// unavailable.
    ///
    /// - Parameter reusingMatchingPaths: Whether the caller is on the thread's stack (every synchronous scheduling),
    ///   so that the site of an earlier scheduling along the same call path can be reused (``CallPathCache``). A clock
    ///   sleep passes `false`: its caller awaits it, and only a full backtrace follows asynchronous frames.
    /// - Cost: a reused site costs a stack walk and a look-up, about 0.1 µs and no allocation. A new path, or a
    ///   sleep, costs one `Backtrace.capture` of at most 40 frames and about eight allocations: 3 to 12 µs on Linux
    ///   x86-64 (release build), growing with the depth of the stack. Nothing is symbolicated here.
    static func capture(reusingMatchingPaths: Bool) -> RecordedCallSite? {
        #if canImport(Runtime)
        if #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
            return reusingMatchingPaths
                ? CallPathCache.site(capturingNewPathWith: captureBacktrace) : captureBacktrace()
        }
        #endif
        return nil
    }

    #if canImport(Runtime)
    /// A full backtrace of the calling thread, asynchronous frames included.
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    private static func captureBacktrace() -> RecordedCallSite? {
        // `limit: 40`: each frame costs, and the caller of a clock sleep, the deepest case measured, is frame 21 to 24
        // (a few more through the path cache). `top: 0`: keep only the innermost frames, where the caller is.
        // `images`: without one, every capture reads the process's image list again (about 230 µs on Linux).
        guard
            let backtrace = try? Backtrace.capture(
                limit: 40, top: 0, images: AddressVerdicts.processImages)
        else { return nil }
        var lastOnStack: UInt?
        var boundary: UInt?
        for frame in backtrace.frames {
            if case .asyncResumePoint = frame {
                boundary = lastOnStack
                break
            }
            if case .returnAddress = frame, let address = frame.address, let value = UInt64(address) {
                lastOnStack = UInt(value)
            }
        }
        return RecordedCallSite(backtrace: backtrace, asyncBoundary: boundary)
    }
    #endif

    /// The innermost frame that has a source line and belongs to none of ExecKit's modules, the standard library,
    /// the Swift runtime or a system library (``CallSiteFilter``); `nil` when none does (code built without debug
    /// information, or a caller deeper than the 32 captured frames).
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
            let backtrace = backtrace as? Backtrace
        {
            return AddressVerdicts.callSite(in: backtrace)
        }
        #endif
        return nil
    }
}

#if canImport(Runtime)
/// What each return address seen so far means for call-site search, shared by the whole process: the address of a
/// caller's line, or of a frame to look past (ExecKit, the standard library, a thunk, a system library, no debug
/// information).
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
enum AddressVerdicts {
    /// The process's images (executable and shared libraries), read once, at the first capture. A library loaded
    /// later (by `dlopen`) is not in it, so a call site inside one is not found; test code is loaded before any
    /// test runs.
    static let processImages = ImageMap.capture()

    private enum Verdict: Sendable {
        /// Code that called into ExecKit, at this line (the innermost of its inlined frames that qualifies).
        case caller(PendingWork.CallSite)
        /// Nothing to report at this address: keep looking outwards.
        case lookPast
    }

    private static let verdicts = LockedBox<[Backtrace.Address: Verdict]>([:])

    /// The call site in `backtrace`, symbolicating it only if an address on the way to the caller is new.
    static func callSite(in backtrace: Backtrace) -> PendingWork.CallSite? {
        let addresses = backtrace.frames.compactMap(\.address)
        if let known = lookUp(addresses) { return known }
        guard let symbolicated = backtrace.symbolicated() else { return nil }
        record(symbolicated)
        return lookUp(addresses) ?? nil
    }

    /// The answer from stored verdicts alone: `.some` when they settle it, `nil` when an address is new.
    private static func lookUp(_ addresses: [Backtrace.Address]) -> PendingWork.CallSite?? {
        verdicts.withLock { verdicts in
            for address in addresses {
                switch verdicts[address] {
                case .caller(let callSite)?: return .some(callSite)
                case .lookPast?: continue
                case nil: return nil
                }
            }
            return .some(nil)
        }
    }

    /// Stores a verdict for every return address of `symbolicated`: frames come innermost first, a return
    /// address's inlined frames before its own, so the first qualifying frame of an address decides it.
    private static func record(_ symbolicated: SymbolicatedBacktrace) {
        var found: [Backtrace.Address: Verdict] = [:]
        for frame in symbolicated.frames {
            guard let address = frame.captured.address else { continue }
            if case .caller? = found[address] { continue }
            found[address] = verdict(for: frame)
        }
        verdicts.withLock { $0.merge(found) { _, new in new } }
    }

    private static func verdict(for frame: SymbolicatedBacktrace.Frame) -> Verdict {
        guard !frame.isSwiftThunk, !frame.isSystem, let symbol = frame.symbol,
            let location = symbol.sourceLocation,
            CallSiteFilter.isCallerFrame(path: location.path, line: location.line, symbol: symbol.rawName)
        else { return .lookPast }
        return .caller(PendingWork.CallSite(path: location.path, line: location.line))
    }
}

@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
extension Backtrace.Frame {
    /// The frame's return address or program counter; `nil` for the markers of omitted or truncated frames.
    fileprivate var address: Backtrace.Address? {
        switch self {
        case .programCounter, .returnAddress, .asyncResumePoint: return originalProgramCounter
        case .omittedFrames, .truncated: return nil
        @unknown default: return nil
        }
    }
}
#endif
