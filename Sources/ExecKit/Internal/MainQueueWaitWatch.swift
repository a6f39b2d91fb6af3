// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecDispatch
@_spi(ExecTesting) import ExecMutex
import Synchronization

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reports, on standard error, a wait of the main queue in an ExecKit `invokeSync` onto another queue that lasts longer
/// than a threshold: the shape of a deadlock ExecKit cannot see (issue #40, item 3). A block of that queue that waits
/// for the main queue with a raw `DispatchQueue.main.sync` (or anything else that waits for a main-queue block) lends
/// ExecKit nothing, so the main queue's `invokeSync` back onto the queue waits for a block that waits for it.
///
/// The threshold is 10 s, or the number of seconds in the environment variable `EXECKIT_MAIN_WAIT_REPORT_SECONDS`,
/// read once (`0` turns the report off). One line per such wait, which goes on: a block that is merely slow is not
/// stopped.
///
/// - Cost: to a wait, a relaxed load, addition and subtraction (about 20 instructions); the watch is a timer source
///   that samples the count four times per threshold (every 2.5 s by default), started by the first wait and kept for
///   the life of the process.
enum MainQueueWaitWatch {
    /// Two counts in one word, so that a wait changes it with one addition and one subtraction: below
    /// ``beginning``, how many waits of the main queue are in progress (nested ones included); above, how many have
    /// begun. A wait in progress that leaves the word unchanged for a whole threshold is one wait that long.
    private static let waits = Atomic<UInt64>(0)
    private static let beginning: UInt64 = 1 << 24
    /// Whether ``watch`` has started (read on every wait, where the lazy global's own check would cost a call).
    private static let started = Atomic<Bool>(false)

    /// The threshold in seconds, or `nil` when the report is off.
    static let thresholdSeconds: Int? = {
        guard let text = getenv("EXECKIT_MAIN_WAIT_REPORT_SECONDS").map({ String(cString: $0) }) else { return 10 }
        guard let seconds = Int(text), (0...1_000_000).contains(seconds) else {
            StandardError.write(
                "ExecKit: EXECKIT_MAIN_WAIT_REPORT_SECONDS=\(text) is not a whole number of seconds from 0 to "
                    + "1,000,000; using 10.\n")
            return 10
        }
        return seconds == 0 ? nil : seconds
    }()

    /// The sampling timer, started by the first wait (`nil` when the report is off).
    // Written once, by the lazy initializer, and only kept: the source is thread-safe.
    nonisolated(unsafe) private static let watch: (any DispatchSourceTimer)? = {
        guard let threshold = thresholdSeconds else { return nil }
        let period = DispatchTimeInterval.milliseconds(max(250, threshold * 1_000 / 4))
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        let sampled = LockedBox<(begun: UInt64, since: DispatchTime, reported: Bool)?>(nil, observed: false)
        timer.setEventHandler {
            let count = waits.load(ordering: .relaxed)
            guard count % beginning > 0 else { return sampled.withLock { $0 = nil } }
            let now = DispatchTime.now()
            let report = sampled.withLock { sample -> UInt64? in
                guard let seen = sample, seen.begun == count else {
                    sample = (count, now, false)
                    return nil
                }
                let waited = (now.uptimeNanoseconds &- seen.since.uptimeNanoseconds) / 1_000_000_000
                guard !seen.reported, waited >= UInt64(threshold) else { return nil }
                sample?.reported = true
                return waited
            }
            if let waited = report { StandardError.write(message(waited: waited)) }
        }
        timer.schedule(deadline: .now() + period, repeating: period, leeway: .milliseconds(100))
        timer.resume()
        return timer
    }()

    /// Runs `body`, a wait of the main queue in an `invokeSync` onto another queue, watched.
    @inline(__always)
    static func watching(_ body: () -> Void) {
        if !started.load(ordering: .relaxed) { start() }
        waits.add(beginning + 1, ordering: .relaxed)
        defer { waits.subtract(1, ordering: .relaxed) }
        body()
    }

    @inline(never)
    private static func start() {
        _ = watch
        started.store(true, ordering: .relaxed)
    }

    /// The report of a wait `waited` seconds long (at least the threshold).
    static func message(waited: UInt64) -> String {
        "ExecKit: the main queue has waited \(waited) s in an invokeSync onto another queue, and still waits. If a "
            + "block of that queue waits for the main queue (a raw DispatchQueue.main.sync, or anything else that "
            + "waits for a main-queue block), this is a deadlock ExecKit cannot see: such a wait lends the block's "
            + "queue to nothing. Wait with Exec.main.invokeSync instead, which lends the queue, so that the main "
            + "queue's invokeSync back onto it runs at once (see ChoosingAContext). "
            + "EXECKIT_MAIN_WAIT_REPORT_SECONDS sets this report's threshold in seconds (0 turns it off).\n"
    }
}
