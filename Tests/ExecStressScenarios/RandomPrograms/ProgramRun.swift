// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one run of a random program has seen: its trace, its failures, the work still to come, and the bookkeeping
/// its invariants need. Thread-safe: every member is guarded by one lock.
final class ProgramRun: @unchecked Sendable {
    // Unchecked: every `var` is read and written only with `lock` held.
    let seed: UInt64
    private let lock = PThreadMutex()
    private var events: [String] = []
    private var failures: [String] = []
    private var pending = 0
    private var runs: [Int: Int] = [:]
    private var expectedRuns: [Int: Int] = [:]
    /// Per serial group, the logical thread inside it and how deeply.
    private var occupants: [Int: (holder: Int, depth: Int)] = [:]
    /// Per context and submitting logical thread, the sequence number of the last `invokeAsync` block started.
    private var lastStarted: [String: Int] = [:]
    private var nextSequence = 0
    private let holders = Atomic(0)

    init(seed: UInt64) { self.seed = seed }

    /// A new logical thread: a chain of calls where each waits for the next (an async block starts one).
    func newHolder() -> Int { holders.add(1, ordering: .relaxed).newValue }

    func log(_ event: String) {
        lock.sync { events.append(event) }
    }

    /// Records a broken promise: `promise` quotes the documentation, `what` says what happened.
    func fail(_ promise: String, _ what: String) {
        lock.sync {
            failures.append("\(what) (promise: \(promise))")
            events.append("FAIL \(what)")
        }
    }

    var failureCount: Int { lock.sync { failures.count } }

    /// One more piece of work that must run before the program is over.
    func expect() { lock.sync { pending += 1 } }

    /// A piece of work announced by ``expect()`` has run.
    func done() { lock.sync { pending -= 1 } }

    /// Whether nothing announced is still to run.
    var isSettled: Bool { lock.sync { pending == 0 } }

    /// Waits until nothing announced is still to run, polling; `false` after `seconds`.
    func waitUntilSettled(seconds: Double) -> Bool {
        let deadline = DispatchTime.now() + seconds
        while !isSettled {
            if DispatchTime.now() > deadline { return false }
            usleep(200)
        }
        return true
    }

    /// Body `id` must run exactly `count` times in all.
    func expectRuns(_ id: Int, _ count: Int) {
        lock.sync { expectedRuns[id, default: 0] += count }
    }

    /// Body `id` started; returns how many times it has now started.
    @discardableResult
    func ran(_ id: Int) -> Int {
        lock.sync {
            runs[id, default: 0] += 1
            return runs[id]!
        }
    }

    func runCount(_ id: Int) -> Int { lock.sync { runs[id] ?? 0 } }

    /// A body of `holder` enters serial `group`: another logical thread must not be inside it.
    func enterSerial(group: Int, holder: Int, body: Int) {
        let intruded: Int? = lock.sync {
            if let occupant = occupants[group], occupant.depth > 0, occupant.holder != holder { return occupant.holder }
            occupants[group] = (holder, (occupants[group]?.depth ?? 0) + 1)
            return nil
        }
        if let other = intruded {
            fail(
                "Serial contexts run blocks one at a time",
                "b\(body) of h\(holder) entered serial group \(group) while h\(other) was inside it")
            lock.sync { occupants[group] = (holder, 1) }
        }
    }

    func leaveSerial(group: Int) {
        lock.sync { occupants[group]?.depth -= 1 }
    }

    /// The sequence number for an `invokeAsync` about to be submitted.
    func sequence() -> Int {
        lock.sync {
            defer { nextSequence += 1 }; return nextSequence
        }
    }

    /// An `invokeAsync` block submitted by `holder` to `context` with `sequence` starts: blocks from one submitter must
    /// start in submission order.
    func startedInOrder(context: String, holder: Int, sequence: Int, body: Int) {
        let key = "\(context)/\(holder)"
        let previous: Int? = lock.sync {
            let last = lastStarted[key]
            lastStarted[key] = max(last ?? -1, sequence)
            return last
        }
        if let previous, previous > sequence {
            fail(
                "Serial contexts run blocks one at a time, in FIFO order",
                "b\(body), submitted to \(context) by h\(holder) as #\(sequence), started after #\(previous)")
        }
    }

    /// Checks that every body with an expected run count ran exactly that often.
    func checkRunCounts() {
        let (expected, actual) = lock.sync { (expectedRuns, runs) }
        for (id, count) in expected.sorted(by: { $0.key < $1.key }) where actual[id, default: 0] != count {
            fail(
                "every block handed to a context runs exactly once",
                "b\(id) ran \(actual[id, default: 0]) times, not \(count)")
        }
    }

    /// The failures and the end of the trace, for a report; `nil` when every promise held.
    func report(traceLines: Int = 40) -> String? {
        lock.sync {
            if failures.isEmpty { return nil }
            return "seed \(seed): " + failures.prefix(5).joined(separator: "; ") + "\n  last events:\n    "
                + events.suffix(traceLines).joined(separator: "\n    ")
        }
    }

    /// The whole trace.
    var trace: [String] { lock.sync { events } }
}
