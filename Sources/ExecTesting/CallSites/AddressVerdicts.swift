// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit

#if canImport(Runtime)
#if canImport(Darwin)
@_weakLinked import Runtime
#else
import Runtime
@_spi(ExecTesting) import ExecMutex
#endif

/// What each return address seen so far means, learned from the toolchain's `Runtime` module once per address and
/// process: whether it enters a Swift async function (for ``CallPathCache``'s keys), and the caller's line it stands for
/// (for reports). Symbolication reads the binaries' files, never the process's memory.
@available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
enum AddressVerdicts {
    /// The process's images (executable and shared libraries), read once, at the first symbolication. A library loaded
    /// later (by `dlopen`) is not in it, so a call site inside one is not found; test code is loaded before any test
    /// runs.
    static let processImages = ImageMap.capture()

    // MARK: Async functions

    /// What the function a return address enters is, for ``CallPathCache``, by its name.
    enum Entered: Sendable, Equatable {
        /// Not a part of an async function.
        case synchronous
        /// A part of an async function of ExecKit's or of the standard library's (`perform`'s continuation, a clock
        /// sleep): its caller awaits it, off the stack, so a call site needs its async callers.
        case libraryAsyncPart
        /// A part of another async function (a test's, the code under test's): its own frame names the line.
        case asyncPart
    }

    private static let entered = LockedBox<[UInt: Entered]>([:], observed: false)

    /// The index of the first return address in `path` that enters a part of a Swift async function (the function a
    /// task's job is running), and what that function is, or `nil` when none does.
    ///
    /// On Linux nothing in a frame tells an async function's frame apart, so this goes by the function's name, as the
    /// `Runtime` module's own unwinder does: a resume part of an async function is named `…TY<n>_` or `…TQ<n>_`.
    ///
    /// - Cost: a look-up per address; addresses not seen before are symbolicated by name in one batch (about 15 µs,
    ///   plus the binaries' symbol tables read once per thread, a few milliseconds).
    static func firstAsyncEntry(in path: UnsafeBufferPointer<UInt>) -> (index: Int, entered: Entered)? {
        if let known = knownFirstAsyncEntry(in: path) { return known }
        let unknown = entered.withLock { known in path.filter { known[$0] == nil } }
        var found: [UInt: Entered] = Dictionary(unknown.map { ($0, .synchronous) }) { first, _ in first }
        if let symbolicated = Backtrace.decoded(unknown.map { (.returnAddress, $0) })?
            .symbolicated(with: processImages, options: [])
        {
            for frame in symbolicated.frames {
                guard let address = frame.captured.address.flatMap({ UInt64($0) }), let symbol = frame.symbol else {
                    continue
                }
                found[UInt(address)] =
                    !isAsyncPart(symbol.rawName)
                    ? .synchronous : isLibraryFunction(symbol.rawName) ? .libraryAsyncPart : .asyncPart
            }
        }
        entered.withLock { $0.merge(found) { old, _ in old } }
        return knownFirstAsyncEntry(in: path) ?? nil
    }

    /// The answer from stored verdicts alone: `.some` when they settle it, `nil` while an address before the first
    /// async one is unknown.
    private static func knownFirstAsyncEntry(
        in path: UnsafeBufferPointer<UInt>
    ) -> (index: Int, entered: Entered)?? {
        entered.withLock { known in
            for (index, address) in path.enumerated() {
                switch known[address] {
                case .synchronous?: continue
                case let entered?: return .some((index, entered))
                case nil: return nil
                }
            }
            return .some(nil)
        }
    }

    /// Whether a mangled name is ExecKit's or the standard library's (`$ss…`, `$sS…`).
    private static func isLibraryFunction(_ mangledName: String) -> Bool {
        !CallSiteFilter.isCallerFunction(symbol: mangledName) || mangledName.hasPrefix("$ss")
            || mangledName.hasPrefix("$sS")
    }

    /// Whether a mangled name is a resume part of an async function: it ends in `TY`, or `TQ`, then digits and `_`.
    static func isAsyncPart(_ mangledName: String) -> Bool {
        var characters = mangledName.utf8.reversed().makeIterator()
        guard characters.next() == UInt8(ascii: "_") else { return false }
        var next = characters.next()
        while let digit = next, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) { next = characters.next() }
        guard next == UInt8(ascii: "Y") || next == UInt8(ascii: "Q") else { return false }
        return characters.next() == UInt8(ascii: "T")
    }

    // MARK: Call sites

    private enum Verdict: Sendable {
        /// Code that called into ExecKit, at this line (the innermost of its inlined frames that qualifies).
        case caller(PendingWork.CallSite)
        /// Nothing to report at this address: keep looking outwards.
        case lookPast
        /// A return address into code that called into ExecKit, in `function` (mangled), whose line is 0: optimized
        /// code gives line 0 to an instruction merged from several lines, a call among them. The line of the nearest
        /// instruction before it in the same function stands for it (the call's arguments are prepared there), found
        /// when first needed.
        case lineless(function: String)
    }

    private static let verdicts = LockedBox<[Backtrace.Address: Verdict]>([:], observed: false)

    /// The call site in `backtrace`: its first address, innermost first, that stands for a caller's line. Symbolicates
    /// `backtrace` only if an address on the way to the caller is new.
    static func callSite(in backtrace: Backtrace) -> PendingWork.CallSite? {
        let addresses = backtrace.frames.compactMap(\.address)
        var symbolicated = false
        var index = 0
        while index < addresses.count {
            let address = addresses[index]
            switch verdicts.withLock({ $0[address] }) {
            case .caller(let callSite)?:
                return callSite
            case .lineless(let function)?:
                let callSite = nearestLine(before: address, in: function)
                verdicts.withLock { $0[address] = callSite.map(Verdict.caller) ?? .lookPast }
                if let callSite { return callSite }
                index += 1
            case .lookPast?:
                index += 1
            case nil where symbolicated:  // symbolication left it without a frame
                index += 1
            case nil:
                guard let frames = backtrace.symbolicated(with: processImages)?.frames else { return nil }
                record(frames)
                symbolicated = true
            }
        }
        return nil
    }

    /// Stores a verdict for every address of `frames`: its first frame that qualifies (inlined frames come before
    /// their function's own), else whether its function is a caller's with no line there.
    private static func record(_ frames: [SymbolicatedBacktrace.Frame]) {
        var found: [Backtrace.Address: Verdict] = [:]
        for (address, group) in groupedByAddress(frames) {
            let caller = group.lazy.compactMap { frame -> PendingWork.CallSite? in
                if case .caller(let callSite) = verdict(for: frame) { return callSite }
                return nil
            }.first
            if let caller {
                found[address] = .caller(caller)
            } else if let own = group.last, let function = linelessCallerFunction(own) {
                found[address] = .lineless(function: function)
            } else {
                found[address] = .lookPast
            }
        }
        verdicts.withLock { $0.merge(found) { _, new in new } }
    }

    /// `frames` a captured address at a time, in order: each address's inlined frames, then its function's own.
    private static func groupedByAddress(
        _ frames: [SymbolicatedBacktrace.Frame]
    ) -> [(address: Backtrace.Address, frames: [SymbolicatedBacktrace.Frame])] {
        var groups: [(address: Backtrace.Address, frames: [SymbolicatedBacktrace.Frame])] = []
        for frame in frames {
            guard let address = frame.captured.address else { continue }
            if groups.last?.address == address {
                groups[groups.count - 1].frames.append(frame)
            } else {
                groups.append((address, [frame]))
            }
        }
        return groups
    }

    /// The mangled name of the function of `frame` when it is a return address into a caller's function (not
    /// ExecKit's, not a thunk) whose line there is 0; `nil` otherwise.
    private static func linelessCallerFunction(_ frame: SymbolicatedBacktrace.Frame) -> String? {
        guard case .returnAddress = frame.captured, !frame.isSwiftThunk, let symbol = frame.symbol,
            symbol.sourceLocation?.line == 0, CallSiteFilter.isCallerFunction(symbol: symbol.rawName)
        else { return nil }
        return symbol.rawName
    }

    /// How far before a line-less return address ``nearestLine(before:in:)`` looks, in bytes: the call instruction and
    /// the instructions that prepare its arguments.
    private static let linelessSearchBytes: UInt = 64

    /// The line of the nearest instruction of `function` before `returnAddress` that has one that qualifies.
    ///
    /// - Cost: one symbolication of 63 program counters, once per such address, when a report first needs it.
    private static func nearestLine(before returnAddress: Backtrace.Address, in function: String) -> PendingWork
        .CallSite?
    {
        guard let value = UInt64(returnAddress).map(UInt.init), value > linelessSearchBytes else { return nil }
        let counters = (2...linelessSearchBytes).map { value - $0 }
        guard
            let frames = Backtrace.decoded(counters.map { (.programCounter, $0) })?
                .symbolicated(with: processImages)?.frames
        else { return nil }
        for (_, group) in groupedByAddress(frames) {
            guard group.last?.symbol?.rawName == function else { return nil }  // past the start of the function
            for frame in group { if case .caller(let callSite) = verdict(for: frame) { return callSite } }
        }
        return nil
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
