// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// The stress suite: every asynchronous API of ExecKit, repeated many times, each in a process of its own. The
// scenarios live here; `ExecKitStress` (an executable) runs one per process, so that a crash in one cannot hide the
// others' results; `ExecStressTests` runs each through it at the ordinary test size, and CI runs the release build of
// it at one and a half times that size.

import ExecKit
import ExecTestSupport

/// One stress scenario: an API used `rounds` times (or as the scenario says), with its promises checked each time.
package struct StressScenario: Sendable {
    /// The name the driver takes: the API, a dot, and the context or variant (`perform.asyncQueue`).
    package let name: String
    /// Runs the scenario; returns a one-line summary of what was checked, or throws a ``StressFailure``.
    package let run: @Sendable (_ rounds: Int) async throws -> String

    package init(_ name: String, run: @escaping @Sendable (_ rounds: Int) async throws -> String) {
        self.name = name
        self.run = run
    }

    /// A scenario that blocks while it waits (for timers to fire, for threads to finish): it runs on a thread of its
    /// own, so that its waiting takes no worker from libdispatch's pools, which the contexts under test need.
    init(_ name: String, blocking: @escaping @Sendable (_ rounds: Int) throws -> String) {
        self.init(name) { rounds in
            let outcome = await withCheckedContinuation { continuation in
                startDetachedThread { continuation.resume(returning: Result { try blocking(rounds) }) }
            }
            return try outcome.get()
        }
    }
}

/// A broken promise, with what was expected and what happened.
package struct StressFailure: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }
}

/// Throws a ``StressFailure`` with `message` unless `condition` holds.
func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw StressFailure(message()) }
}

/// An error thrown on purpose, carrying the round that threw it.
struct RoundError: Error {
    let round: Int
}

/// A context of every kind a user can pick, made fresh for each scenario.
struct StressContext: Sendable {
    let name: String
    let make: @Sendable () -> Exec
    /// Whether blocks run one at a time.
    let isSerial: Bool
    /// Whether `isCurrent` answers `true` inside the context's blocks (a context of the user's that does not
    /// implement it answers `false`, and a concurrent context has no identity).
    let answersIsCurrent: Bool

    /// `context.isCurrent` where it means something, `true` elsewhere: the check that a block runs in its context.
    func isInside(_ context: Exec) -> Bool {
        answersIsCurrent ? context.isCurrent : true
    }

    /// Every kind of context: inline, the main queue (four ways), a global queue, private queues used four ways, the
    /// serializing wrappers, and a user's own serial and concurrent contexts.
    static let all: [StressContext] = [
        StressContext(name: "direct", make: { .direct }, isSerial: false, answersIsCurrent: false),
        StressContext(name: "main", make: { .main }, isSerial: true, answersIsCurrent: true),
        StressContext(name: "mainAsync", make: { .mainAsync }, isSerial: true, answersIsCurrent: true),
        StressContext(name: "mainOrdered", make: { .mainOrdered }, isSerial: true, answersIsCurrent: true),
        StressContext(
            name: "queueMain", make: { .queue(DispatchQueue.main, .serialAsync) }, isSerial: true,
            answersIsCurrent: true),
        StressContext(name: "utility", make: { .utility }, isSerial: false, answersIsCurrent: false),
        StressContext(name: "asyncQueue", make: { .asyncQueue() }, isSerial: true, answersIsCurrent: true),
        StressContext(name: "syncQueue", make: { .syncQueue() }, isSerial: true, answersIsCurrent: true),
        StressContext(
            name: "concurrentQueue",
            make: { .queue(DispatchQueue(label: "stress.concurrent", attributes: .concurrent), .concurrentAsync) },
            isSerial: false, answersIsCurrent: false),
        StressContext(name: "serializedDirect", make: { .direct.serialized() }, isSerial: true, answersIsCurrent: true),
        StressContext(
            name: "serializedUtility", make: { .utility.serialized() }, isSerial: true, answersIsCurrent: true),
        StressContext(
            name: "customSerial", make: { .custom(UserSerialContext()) }, isSerial: true, answersIsCurrent: false),
        StressContext(
            name: "customConcurrent", make: { .custom(UserConcurrentContext()) }, isSerial: false,
            answersIsCurrent: false),
        StressContext(
            name: "serializedCustom", make: { .custom(UserConcurrentContext()).serialized() }, isSerial: true,
            answersIsCurrent: true),
    ]

    /// The serial ones: those an actor can run on.
    static var serial: [StressContext] { all.filter(\.isSerial) }
}

/// A user's own serial context, written as *Writing your own context* says: the four requirements, on a private queue.
struct UserSerialContext: ExecutionContext {
    let queue = DispatchQueue(label: "stress.user.serial")

    var type: ExecutionType { .serialAsync }
    func invoke(_ execute: @escaping @Sendable () -> Void) { queue.async(execute: execute) }
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { queue.async(execute: execute) }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { queue.sync(execute: execute) }
}

/// A user's own concurrent context: the four requirements, on a global queue.
struct UserConcurrentContext: ExecutionContext {
    var type: ExecutionType { .concurrentAsync }
    func invoke(_ execute: @escaping @Sendable () -> Void) { DispatchQueue.global().async(execute: execute) }
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { DispatchQueue.global().async(execute: execute) }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { DispatchQueue.global().sync(execute: execute) }
}
