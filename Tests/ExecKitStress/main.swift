// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// The stress driver: runs the scenarios of ExecStressScenarios, each in a process of its own.
//
//   ExecKitStress list                     prints every scenario's name
//   ExecKitStress run NAME [ROUNDS]        runs one scenario in this process (default 20,000 rounds)
//   ExecKitStress all [ROUNDS] [FILTER]    runs every scenario (whose name contains FILTER) in a child process each,
//                                          and ends with "N passed, N failed"
//   ExecKitStress replay live|coordinator|explored SEED   runs the random program of SEED alone and prints its trace
//
// A scenario that breaks a promise prints "FAIL name: what happened" and exits 1; one that hangs is stopped by a
// watchdog after 300 s (exit 2); a crash shows as the child's signal. Scenarios run in a task while the main thread
// calls dispatchMain(), so the main queue is serviced on a worker thread, as in a server or command-line program.

import Dispatch
import ExecStressScenarios
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
let defaultRounds = 20_000

/// Prints `line` straight to standard output (no buffer to lose if the process then crashes or exits).
func printFlushed(_ line: String) {
    let text = line + "\n"
    _ = text.utf8CString.withUnsafeBufferPointer { write(STDOUT_FILENO, $0.baseAddress, $0.count - 1) }
}

func usage() -> Never {
    printFlushed(
        "usage: ExecKitStress list | run NAME [ROUNDS] | all [ROUNDS] [FILTER] | replay live|coordinator|explored SEED")
    exit(64)
}

/// Runs one scenario here; exits 0 when it passes.
func runHere(_ name: String, rounds: Int) async -> Never {
    guard let scenario = StressScenarios.named(name) else {
        printFlushed("FAIL \(name): no such scenario (ExecKitStress list names them)")
        exit(64)
    }
    let watchdog = DispatchSource.makeTimerSource(queue: .global())
    watchdog.schedule(deadline: .now() + 300)
    watchdog.setEventHandler {
        printFlushed("FAIL \(name): still running after 300 s (a lost callback or a deadlock)")
        exit(2)
    }
    watchdog.resume()
    let start = DispatchTime.now()
    let outcome: Result<String, any Error>
    do { outcome = .success(try await scenario.run(rounds)) } catch { outcome = .failure(error) }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    switch outcome {
    case .success(let summary):
        printFlushed("ok   \(name) (\(rounds) rounds, \(String(format: "%.2f", seconds)) s): \(summary)")
        exit(0)
    case .failure(let error):
        printFlushed("FAIL \(name) (\(rounds) rounds): \(error)")
        exit(1)
    }
}

/// Runs every scenario whose name contains `filter`, each in a child process; exits 1 if any failed.
func runAll(rounds: Int, filter: String) -> Never {
    let executable = URL(fileURLWithPath: CommandLine.arguments[0])
    let names = StressScenarios.all.map(\.name).filter { filter.isEmpty || $0.contains(filter) }
    var failed: [String] = []
    for name in names {
        let child = Process()
        child.executableURL = executable
        child.arguments = ["run", name, String(rounds)]
        do {
            try child.run()
        } catch {
            printFlushed("FAIL \(name): could not start a child process: \(error)")
            failed.append(name)
            continue
        }
        child.waitUntilExit()
        if child.terminationReason == .uncaughtSignal {
            printFlushed("FAIL \(name): crashed with signal \(child.terminationStatus)")
        }
        if child.terminationStatus != 0 || child.terminationReason == .uncaughtSignal { failed.append(name) }
    }
    if !failed.isEmpty { printFlushed("failed: \(failed.joined(separator: ", "))") }
    printFlushed("\(names.count - failed.count) passed, \(failed.count) failed")
    exit(failed.isEmpty ? 0 : 1)
}

switch arguments.first {
case "list":
    for scenario in StressScenarios.all { print(scenario.name) }
case "run":
    guard arguments.count >= 2 else { usage() }
    let rounds = arguments.count >= 3 ? Int(arguments[2]) ?? defaultRounds : defaultRounds
    let name = arguments[1]
    Task.detached { () async -> Void in await runHere(name, rounds: rounds) }
    dispatchMain()
case "replay":
    guard arguments.count == 3, let seed = UInt64(arguments[2]),
        ["live", "coordinator", "explored"].contains(arguments[1])
    else {
        usage()
    }
    let mode = arguments[1]
    Task.detached { () async -> Void in
        let (report, trace) =
            mode == "live"
            ? RandomProgramScenarios.runLive(seed: seed)
            : RandomProgramScenarios.runCoordinator(seed: seed, explores: mode == "explored")
        for event in trace { printFlushed(event) }
        printFlushed(report.map { "FAIL \($0)" } ?? "ok   seed \(seed): every promise held")
        exit(report == nil ? 0 : 1)
    }
    dispatchMain()
case "all":
    let rounds = arguments.count >= 2 ? Int(arguments[1]) ?? defaultRounds : defaultRounds
    runAll(rounds: rounds, filter: arguments.count >= 3 ? arguments[2] : "")
default:
    usage()
}
