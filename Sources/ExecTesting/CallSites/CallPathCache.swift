// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import CExecDispatchShims
import ExecKit

/// One ``RecordedCallSite`` per distinct call path, shared by every piece of work scheduled along it: a test that
/// schedules a million timers from one loop captures one full backtrace, not a million.
///
/// A call path is the chain of return addresses on the scheduling thread's stack (frame pointers, innermost first, at
/// most ``depth``), read without allocating. Two schedulings with the same path were made by the same code, so they
/// have the same call site: the innermost frame outside ExecKit lies on that path. That holds for every scheduling
/// made by a synchronous call, which is all of them but a clock sleep (`sleep` is called asynchronously, so its
/// caller is not on the thread's stack; ``RecordedCallSite/capture(reusingMatchingPaths:)`` is told so).
///
/// - Thread-safety: one lock, held for a hash look-up and a comparison; never while capturing a backtrace.
/// - Memory: each distinct path is kept for the life of the process (paths repeat across tests; a test suite has a
///   few thousand at most).
enum CallPathCache {
    /// How many return addresses make a path: as deep as the backtrace a miss captures.
    static let depth = 40

    private struct Entry: Sendable {
        let path: [UInt]
        let site: RecordedCallSite
    }

    private static let entries = LockedBox<[Int: [Entry]]>([:])

    /// The recorded call site of the calling thread's call path, capturing one with `captureFull` the first time the
    /// path is seen.
    ///
    /// - Cost: walking the stack and hashing the path (about a hundred nanoseconds for 40 frames), a lock and a
    ///   dictionary look-up; no allocation on a hit.
    @inline(never)
    static func site(capturingNewPathWith captureFull: () -> RecordedCallSite?) -> RecordedCallSite? {
        withUnsafeTemporaryAllocation(of: UInt.self, capacity: depth) { buffer in
            let count = execkit_capture_return_addresses(buffer.baseAddress, depth)
            let path = UnsafeBufferPointer(rebasing: buffer[..<count])
            var hasher = Hasher()
            for address in path { hasher.combine(address) }
            let key = hasher.finalize()
            let known = entries.withLock { entries in
                entries[key]?.first { $0.path.elementsEqual(path) }?.site
            }
            if let known { return known }
            guard let site = captureFull() else { return nil }
            let entry = Entry(path: Array(path), site: site)
            return entries.withLock { entries in
                // Another thread may have added the same path meanwhile: keep the first, so all share one site.
                if let raced = entries[key]?.first(where: { $0.path == entry.path }) { return raced.site }
                entries[key, default: []].append(entry)
                return site
            }
        }
    }
}
