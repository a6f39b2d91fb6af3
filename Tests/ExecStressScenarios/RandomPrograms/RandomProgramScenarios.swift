// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The seeded random-program checker (issue #23): random programs over every kind of context, each promise checked as
/// an invariant. Program `n` of a run has seed `n` (from 1), so a failure names the seed that reproduces it:
/// `swift run ExecKitStress replay live SEED` (or `coordinator SEED`) runs that program alone and prints its trace.
/// `EXECKIT_FIRST_SEED=N` in the environment starts a run at seed `N` instead (to go on past a known failure).
package enum RandomProgramScenarios {
    static var all: [StressScenario] {
        [
            StressScenario(
                "randomPrograms.live",
                blocking: { rounds in try livePrograms(count: max(20, rounds / 100), firstSeed: firstSeed) }),
            StressScenario("randomPrograms.coordinator") { rounds in
                try coordinatorPrograms(count: max(20, rounds / 50), firstSeed: firstSeed)
            },
            // Guarantees: G-explore-keeps-promises, G-explore-random (the same seed twice, the same trace)
            StressScenario("randomPrograms.explored") { rounds in
                try coordinatorPrograms(count: max(20, rounds / 50), firstSeed: firstSeed, explores: true)
            },
        ]
    }

    /// The first seed of a run: 1, or `EXECKIT_FIRST_SEED`.
    static var firstSeed: UInt64 {
        getenv("EXECKIT_FIRST_SEED").flatMap { UInt64(String(cString: $0)) } ?? 1
    }

    /// Runs live programs with seeds `1...count`; throws the first failure's report.
    static func livePrograms(count: Int, firstSeed: UInt64 = 1) throws -> String {
        CrashReport.install()
        for seed in firstSeed..<firstSeed + UInt64(count) {
            if let report = runLive(seed: seed).report { throw StressFailure(report) }
        }
        return "\(count) random programs (seeds \(firstSeed)...\(firstSeed + UInt64(count) - 1)) on live contexts"
    }

    /// Runs coordinator programs with seeds `1...count`, each twice; throws the first failure's report. `explores`:
    /// each program's coordinator orders its work at random from the program's seed, as `TestCoordinator.explore`
    /// does, and the model checks what exploration keeps (issue #31).
    static func coordinatorPrograms(count: Int, firstSeed: UInt64 = 1, explores: Bool = false) throws -> String {
        CrashReport.install()
        for seed in firstSeed..<firstSeed + UInt64(count) {
            if let report = runCoordinator(seed: seed, explores: explores).report { throw StressFailure(report) }
        }
        return "\(count) random programs (seeds \(firstSeed)...\(firstSeed + UInt64(count) - 1)) in virtual time"
            + (explores ? ", each explored (random order from its seed)" : "")
            + ", each run twice with the same trace and checked against the reference model"
    }

    /// Runs the live program of `seed`: its failure report (or `nil`) and its trace.
    package static func runLive(seed: UInt64) -> (report: String?, trace: [String]) {
        CrashReport.install()
        CrashReport.currentSeed = seed
        var random = SplitMix64(seed: seed)
        let pool = LiveContexts.pool(&random)
        let program = RandomProgram(seed: seed, contextCount: pool.count)
        let interpreter = LiveInterpreter(pool: pool, run: ProgramRun(seed: seed))
        let report = interpreter.execute(program)
        return (report.map { "live program, pool \(pool.map(\.name)): \($0)" }, interpreter.run.trace)
    }

    /// Runs the coordinator program of `seed` twice: a model failure's report, or a difference between the two traces.
    package static func runCoordinator(seed: UInt64, explores: Bool = false) -> (report: String?, trace: [String]) {
        CrashReport.install()
        CrashReport.currentSeed = seed
        let program = RandomProgram(seed: seed, contextCount: CoordinatorContexts.poolSize, periodic: false)
        let first = CoordinatorInterpreter(seed: seed, explores: explores)
        if let report = first.execute(program) { return ("coordinator program: \(report)", first.run.trace) }
        let second = CoordinatorInterpreter(seed: seed, explores: explores)
        if let report = second.execute(program) {
            return ("coordinator program, second run: \(report)", second.run.trace)
        }
        let (a, b) = (first.run.trace, second.run.trace)
        if a != b {
            let index = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
            let line = { (trace: [String]) in index < trace.count ? trace[index] : "(end)" }
            return (
                "seed \(seed): the same program ran differently twice in virtual time (promise: a TestCoordinator runs "
                    + "work deterministically): event \(index) was \"\(line(a))\", then \"\(line(b))\"", a
            )
        }
        return (nil, a)
    }
}

extension CoordinatorContexts {
    /// How many contexts ``pool(_:)`` returns.
    static let poolSize = 7
}

/// Names the random program that was running when the process crashed: a signal handler writes its seed to standard
/// error, then lets the signal take its course (the runtime's backtrace follows).
enum CrashReport {
    nonisolated(unsafe) static var currentSeed: UInt64 = 0
    nonisolated(unsafe) private static var installed = false
    /// The actions in place before ``install()``, by signal number (zeroed: no action).
    nonisolated(unsafe) private static let previous: UnsafeMutablePointer<sigaction> = {
        let storage = UnsafeMutablePointer<sigaction>.allocate(capacity: 64)
        memset(storage, 0, 64 * MemoryLayout<sigaction>.stride)
        return storage
    }()
    private static let signals = [SIGILL, SIGSEGV, SIGBUS, SIGABRT, SIGTRAP, SIGFPE]

    static func install() {
        if installed { return }
        installed = true
        for signal in signals {
            var action = previous[0]  // a zeroed action (signal 0 is never installed)
            #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = { CrashReport.report($0) }
            #else
            action.__sigaction_handler.sa_handler = { CrashReport.report($0) }
            #endif
            sigaction(signal, &action, previous + Int(signal))
        }
    }

    /// Async-signal-safe: formats the seed by hand and writes it with `write`.
    private static func report(_ signal: Int32) {
        var digits = [UInt8](repeating: 0, count: 24)
        var value = currentSeed
        var position = digits.count
        repeat {
            position -= 1
            digits[position] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        } while value > 0
        let prefix = "\nFAIL a random program crashed; replay it with ExecKitStress replay live|coordinator "
        prefix.utf8CString.withUnsafeBufferPointer { _ = write(STDERR_FILENO, $0.baseAddress, $0.count - 1) }
        digits[position...].withUnsafeBufferPointer { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
        _ = write(STDERR_FILENO, "\n", 1)
        sigaction(signal, previous + Int(signal), nil)  // the fault happens again, and goes where it went before
    }
}
