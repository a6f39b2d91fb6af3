// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims
import ExecKit
@_spi(ExecTesting) import ExecMutex

/// One ``RecordedCallSite`` per distinct call path, shared by every piece of work scheduled along it: a test that
/// schedules a million timers from one loop keeps one site, not a million.
///
/// A call path is the chain of return addresses on the scheduling thread's stack (frame pointers, innermost first, at
/// most ``depth``), read without allocating by a walk that stays inside the thread's stack and stops where the chain
/// leaves it or stops rising, so a frame that keeps no frame pointer ends the walk instead of sending it into the heap.
/// Two schedulings along the same path were made by the same code, so they have the same call site, as long as the
/// caller is on that stack. Where the stack enters an async function (a task's job), the callers above it are async
/// frames, off the stack: there the path also takes the resume points of that function's async callers, read from its
/// async context with checked reads, so that `await context.perform { }` on two lines gives two paths. Which return
/// address enters an async function, its name says, looked up once per address (``AddressVerdicts``).
///
/// - Thread-safety: one lock, held for a hash look-up and a comparison; never while reading the stack or symbols.
/// - Memory: each distinct path is kept for the life of the process (paths repeat across tests; a test suite has a
///   few thousand at most).
enum CallPathCache {
    /// How many return addresses make a path, and are kept for a report.
    static let depth = 40
    /// How many async callers' resume points join a path that enters an async function.
    static let asyncDepth = 8

    /// The sites recorded along one stack path.
    private final class PathEntry: @unchecked Sendable {  // read and written under `entries`' lock only
        let path: [UInt]
        /// Where the path enters an async function: the index in `path` of the return address into it, or `nil` for a
        /// path with none. Past it, the stack is the code that ran the task's job, not the caller.
        let asyncIndex: Int?
        /// Whether the sites along the path differ by their async callers: the async function the path enters is
        /// ExecKit's or the standard library's, and awaited by the caller (`perform`, a clock sleep).
        let readsCallers: Bool
        /// The one site of a path whose async callers do not matter.
        var site: RecordedCallSite?
        /// The sites of a path whose async callers matter, by the hash of their resume points, each with those points.
        var sitesByCallers: [Int: [(resumePoints: [UInt], site: RecordedCallSite)]] = [:]

        init(path: [UInt], asyncIndex: Int?, readsCallers: Bool) {
            self.path = path
            self.asyncIndex = asyncIndex
            self.readsCallers = readsCallers
        }
    }

    /// The paths seen, by ``hash(_:)`` of their return addresses.
    private static let entries = LockedBox<[Int: [PathEntry]]>([:], observed: false)

    /// The recorded call site of the calling thread's call path, recording one the first time the path (and, on a
    /// task's thread, its async callers) is seen.
    ///
    /// - Cost: walking the stack and hashing the path, a lock and a dictionary look-up (about 1,450 instructions for a
    ///   path of 30 frames), and no allocation, on a path seen before; plus, on a path whose async callers matter, a
    ///   checked read of their contexts (a system call, 2 to 5 µs) and a second look-up.
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @inline(never)
    static func site() -> RecordedCallSite {
        withUnsafeTemporaryAllocation(of: UInt.self, capacity: 2 * depth + asyncDepth) { buffer in
            let addresses = buffer.baseAddress!
            let frames = addresses + depth
            let points = frames + depth
            let count = execkit_capture_return_addresses(addresses, frames, depth)
            let path = UnsafeBufferPointer(start: addresses, count: count)
            let key = hash(path)
            let (known, knownSite) = entries.withLock { entries -> (PathEntry?, RecordedCallSite?) in
                let entry = entries[key]?.first { sameWords($0.path, path) }
                return (entry, entry?.readsCallers == false ? entry?.site : nil)
            }
            if let knownSite { return knownSite }
            let (asyncIndex, readsCallers) =
                known.map { ($0.asyncIndex, $0.readsCallers) }
                ?? {
                    let found = isRunningTask ? AddressVerdicts.firstAsyncEntry(in: path) : nil
                    return (found?.index, found?.entered == .libraryAsyncPart)
                }()
            let resumePoints = readResumePoints(
                readsCallers ? asyncIndex : nil, frames: frames, count: count, into: points)
            return entries.withLock { entries in
                let entry =
                    known ?? entries[key]?.first { sameWords($0.path, path) }
                    ?? {
                        let added = PathEntry(path: Array(path), asyncIndex: asyncIndex, readsCallers: readsCallers)
                        entries[key, default: []].append(added)
                        return added
                    }()
                return site(in: entry, for: resumePoints, path: path)
            }
        }
    }

    /// The site of `entry` for `resumePoints`, recorded now if there is none yet; called under the lock.
    private static func site(
        in entry: PathEntry, for resumePoints: UnsafeBufferPointer<UInt>, path: UnsafeBufferPointer<UInt>
    ) -> RecordedCallSite {
        func recorded() -> RecordedCallSite {
            let onStack = entry.asyncIndex.map { UnsafeBufferPointer(rebasing: path[...$0]) } ?? path
            return RecordedCallSite(returnAddresses: onStack, resumePoints: resumePoints)
        }
        guard entry.readsCallers else {
            if let site = entry.site { return site }
            let site = recorded()
            entry.site = site
            return site
        }
        let pointsHash = hash(resumePoints)
        if let site = entry.sitesByCallers[pointsHash]?.first(where: { sameWords($0.resumePoints, resumePoints) }) {
            return site.site
        }
        let site = recorded()
        entry.sitesByCallers[pointsHash, default: []].append((Array(resumePoints), site))
        return site
    }

    /// Whether the calling thread is running a task's job: only then can its stack hold an async function's frame.
    private static var isRunningTask: Bool { withUnsafeCurrentTask { $0 != nil } }

    /// Whether `stored` holds `words`, compared without generic code.
    private static func sameWords(_ stored: [UInt], _ words: UnsafeBufferPointer<UInt>) -> Bool {
        guard stored.count == words.count else { return false }
        return stored.withUnsafeBufferPointer { stored in
            for index in stored.indices where stored[index] != words[index] { return false }
            return true
        }
    }

    /// A hash of a path's words for the tables' keys (a multiply and a rotate a word; the tables compare the words
    /// themselves, so a collision costs a comparison, never a wrong site).
    private static func hash(_ words: UnsafeBufferPointer<UInt>) -> Int {
        var hash: UInt = 0x9E37_79B9_7F4A_7C15
        for word in words { hash = (hash ^ word) &* 0xBF58_476D_1CE4_E5B9 }
        return Int(bitPattern: hash ^ (hash >> 31))
    }

    /// The resume points of the async callers of the function entered at `path[index]`, whose frame record is
    /// `frames[index + 1]`, read into `points`; empty without one.
    private static func readResumePoints(
        _ index: Int?, frames: UnsafeMutablePointer<UInt>, count: Int, into points: UnsafeMutablePointer<UInt>
    ) -> UnsafeBufferPointer<UInt> {
        guard let index, index + 1 < count else { return UnsafeBufferPointer(start: points, count: 0) }
        let read = execkit_async_resume_points(frames[index + 1], points, asyncDepth)
        return UnsafeBufferPointer(start: points, count: read)
    }
}
