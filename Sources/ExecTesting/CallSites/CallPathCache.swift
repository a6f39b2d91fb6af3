// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims
import ExecKit

/// One ``RecordedCallSite`` per distinct call path, shared by every piece of work scheduled along it: a test that
/// schedules a million timers from one loop captures one full backtrace, not a million.
///
/// A call path is the chain of return addresses on the scheduling thread's stack (frame pointers, innermost first, at
/// most ``depth``), read without allocating. Two schedulings along the same path were made by the same code, so they
/// have the same call site, as long as the caller is on that stack. Where the stack ends in an async function (a task's
/// job), the callers above it are async frames, off the stack: there the path also takes the resume points of that
/// function's async callers, read from its async context, so that `await context.perform { }` on two lines gives two
/// paths. Which frame that is, the first full backtrace of the path says (Swift's own unwinder tells async frames
/// apart). A clock sleep, an async call itself, never reuses a site (``RecordedCallSite/capture(reusingMatchingPaths:)``).
///
/// - Thread-safety: one lock, held for a hash look-up and a comparison; never while capturing a backtrace.
/// - Memory: each distinct path is kept for the life of the process (paths repeat across tests; a test suite has a
///   few thousand at most).
enum CallPathCache {
    /// How many return addresses make a path: as deep as the backtrace a miss captures.
    static let depth = 40
    /// How many async callers' resume points join a path that ends in an async function.
    static let asyncDepth = 8

    /// The sites recorded along one stack path.
    private struct Entry: Sendable {
        let path: [UInt]
        /// Where the path enters an async function: the index in `path` of the return address into it, or `nil` for a
        /// path with no async frame. Known from the first full backtrace along the path.
        let asyncIndex: Int?
        /// The sites, by the hash of the async callers' resume points, each with those points (empty for a path with
        /// no async frame).
        var sites: [Int: [(resumePoints: [UInt], site: RecordedCallSite)]]

        func site(for resumePoints: UnsafeBufferPointer<UInt>, hash: Int) -> RecordedCallSite? {
            sites[hash]?.first { $0.resumePoints.elementsEqual(resumePoints) }?.site
        }
    }

    private static let entries = LockedBox<[Int: [Entry]]>([:])

    /// The recorded call site of the calling thread's call path, capturing one with `captureFull` the first time the
    /// path is seen.
    ///
    /// - Cost: walking the stack and hashing the path (about a hundred nanoseconds for 40 frames), a lock and a
    ///   dictionary look-up, plus reading up to eight async contexts on a task's path; no allocation on a hit.
    @inline(never)
    static func site(capturingNewPathWith captureFull: () -> RecordedCallSite?) -> RecordedCallSite? {
        withUnsafeTemporaryAllocation(of: UInt.self, capacity: 2 * depth + asyncDepth) { buffer in
            let addresses = buffer.baseAddress!
            let frames = addresses + depth
            let points = frames + depth
            let count = execkit_capture_return_addresses(addresses, frames, depth)
            let path = UnsafeBufferPointer(start: addresses, count: count)
            let key = hash(path)
            let known = entries.withLock { entries in entries[key]?.first { $0.path.elementsEqual(path) } }
            if let known {
                let resumePoints = readResumePoints(known.asyncIndex, frames: frames, count: count, into: points)
                let pointsHash = hash(resumePoints)
                if let site = known.site(for: resumePoints, hash: pointsHash) { return site }
                guard let site = captureFull() else { return nil }
                return store(
                    site, key: key, path: path, asyncIndex: known.asyncIndex, resumePoints: resumePoints,
                    pointsHash: pointsHash)
            }
            guard let site = captureFull() else { return nil }
            let asyncIndex = site.asyncBoundary.flatMap { boundary in path.firstIndex(of: boundary) }
            let resumePoints = readResumePoints(asyncIndex, frames: frames, count: count, into: points)
            return store(
                site, key: key, path: path, asyncIndex: asyncIndex, resumePoints: resumePoints,
                pointsHash: hash(resumePoints))
        }
    }

    private static func hash(_ words: UnsafeBufferPointer<UInt>) -> Int {
        var hasher = Hasher()
        for word in words { hasher.combine(word) }
        return hasher.finalize()
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

    /// Keeps `site` for the path and resume points, unless another thread kept one meanwhile; returns the kept one.
    private static func store(
        _ site: RecordedCallSite, key: Int, path: UnsafeBufferPointer<UInt>, asyncIndex: Int?,
        resumePoints: UnsafeBufferPointer<UInt>, pointsHash: Int
    ) -> RecordedCallSite {
        entries.withLock { entries in
            let position =
                entries[key]?.firstIndex { $0.path.elementsEqual(path) }
                ?? {
                    entries[key, default: []].append(Entry(path: Array(path), asyncIndex: asyncIndex, sites: [:]))
                    return entries[key]!.count - 1
                }()
            if let raced = entries[key]![position].site(for: resumePoints, hash: pointsHash) { return raced }
            entries[key]![position].sites[pointsHash, default: []].append((Array(resumePoints), site))
            return site
        }
    }
}
