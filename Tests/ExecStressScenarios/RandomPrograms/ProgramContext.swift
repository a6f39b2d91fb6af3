// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import ExecTesting

/// A context in a random program, and what the docs promise about it.
struct ProgramContext: Sendable {
    /// What kind of context this is, as far as the promises checked here go.
    enum Kind: Sendable {
        /// An `Exec` serial queue used asynchronously (`asyncQueue()`, `.serialAsync`, `.conditionallyAsync`, the
        /// `alwaysAsync()` of a `syncQueue()`): known through ExecKit's record, re-entered inline by `invokeSync`.
        case asyncQueue
        /// A queue used as a mutex (`syncQueue()`, `.mutex`): known through the record, never re-entered.
        case mutexQueue
        /// The main queue, however named: known through the record or the current queue, re-entered inline.
        case main
        /// `.direct.serialized()`, a re-entrant mutex: known through the record (its own entry), re-entered inline.
        case serializedMutex
        /// A concurrent context of the user's made serial by `serialized()`: known through the record while a batch
        /// runs, re-entered inline.
        case serializedAsync
        /// A user's serial context with the four requirements only: `isCurrent` is always `false`.
        case customSerial
        /// A concurrent context (a global queue, a user's concurrent context): `isCurrent` is `false`.
        case concurrent
        /// `.direct`: inline, `isCurrent` always `true`.
        case direct
    }

    let name: String
    let context: Exec
    let kind: Kind
    /// Contexts that share a queue share a group (a `syncQueue()` and its `alwaysAsync()`; the main-queue cases). Groups
    /// are numbered in a fixed order, and a program only waits on a group above every group it holds, so that two
    /// threads never wait for each other.
    let group: Int

    /// Whether blocks run one at a time.
    var isSerial: Bool {
        switch kind {
        case .concurrent, .direct: return false
        default: return true
        }
    }

    /// Whether an actor can run on it (`unownedSerialExecutor`): every serial kind but a user's context that implements
    /// only the four requirements.
    var hasSerialExecutor: Bool { isSerial && kind != .customSerial }

    /// Whether ExecKit's record of entered queues (which `invokeSync` carries to the thread that runs its block) tells
    /// that a block is inside this context.
    var isKnownByRecord: Bool {
        switch kind {
        case .asyncQueue, .mutexQueue, .main, .serializedMutex, .serializedAsync: return true
        default: return false
        }
    }

    /// Whether `invokeSync` from inside runs the block inline. README: "`invokeSync` from inside a serial asynchronous
    /// context (`asyncQueue()`, `serialized()` contexts, `.main`) runs the block inline instead." Since issue #29 the
    /// `serialized()` contexts enter the same record as queues, so they too are re-entered wherever it says inside.
    var reentersInline: Bool {
        switch kind {
        case .asyncQueue, .main, .serializedMutex, .serializedAsync: return true
        default: return false
        }
    }
}

/// The kinds of context a live program picks from, made fresh for each program.
enum LiveContexts {
    /// A catalogue entry: a name and a maker that returns the contexts it makes (one, or two sharing a queue).
    typealias Entry = (name: String, make: @Sendable () -> [(String, Exec, ProgramContext.Kind)])

    static let catalogue: [Entry] = [
        ("asyncQueue", { [("asyncQueue", .asyncQueue(label: "program.async"), .asyncQueue)] }),
        (
            "conditional",
            {
                [
                    (
                        "conditional", .queue(DispatchQueue(label: "program.conditional"), .conditionallyAsync(true)),
                        .asyncQueue
                    )
                ]
            }
        ),
        (
            "syncQueue",
            {
                let lock = Exec.syncQueue(label: "program.mutex")
                return [
                    ("syncQueue", lock, .mutexQueue), ("syncQueue.alwaysAsync", lock.alwaysAsync(), .asyncQueue),
                ]
            }
        ),
        (
            "main",
            {
                [
                    ("main", .main, .main), ("mainAsync", .mainAsync, .main), ("mainOrdered", .mainOrdered, .main),
                    ("queueMain", .queue(DispatchQueue.main, .serialAsync), .main),
                ]
            }
        ),
        ("utility", { [("utility", .utility, .concurrent)] }),
        (
            "direct",
            { [("direct", .direct, .direct), ("direct.alwaysAsync", Exec.direct.alwaysAsync(), .concurrent)] }
        ),
        ("serializedDirect", { [("serializedDirect", .direct.serialized(), .serializedMutex)] }),
        // A global queue made serial is a private serial queue that targets it: an `Exec` queue.
        ("serializedUtility", { [("serializedUtility", .utility.serialized(), .asyncQueue)] }),
        ("customSerial", { [("customSerial", .custom(UserSerialContext()), .customSerial)] }),
        ("customConcurrent", { [("customConcurrent", .custom(UserConcurrentContext()), .concurrent)] }),
        (
            "serializedCustom",
            { [("serializedCustom", .custom(UserConcurrentContext()).serialized(), .serializedAsync)] }
        ),
    ]

    /// Four to six catalogue entries, chosen by `random`, in a random order (which fixes the groups' order).
    static func pool(_ random: inout SplitMix64) -> [ProgramContext] {
        var entries = catalogue
        entries.shuffle(using: &random)
        let chosen = entries.prefix(4 + Int(random.next() % 3))
        var pool: [ProgramContext] = []
        for (group, entry) in chosen.enumerated() {
            for (name, context, kind) in entry.make() {
                pool.append(ProgramContext(name: name, context: context, kind: kind, group: group))
            }
        }
        return pool
    }
}

/// The contexts a coordinator program picks from: all of one `TestCoordinator`, in virtual time.
enum CoordinatorContexts {
    static func pool(_ coordinator: TestCoordinator) -> [ProgramContext] {
        [
            ProgramContext(name: "a", context: coordinator.serialQueue(named: "a"), kind: .asyncQueue, group: 0),
            ProgramContext(
                name: "m", context: coordinator.serialQueue(named: "m", type: .mutex), kind: .mutexQueue, group: 1),
            ProgramContext(name: "b", context: coordinator.serialQueue(named: "b"), kind: .asyncQueue, group: 2),
            ProgramContext(name: "main", context: coordinator.main, kind: .main, group: 3),
            ProgramContext(name: "mainAsync", context: coordinator.mainAsync, kind: .main, group: 3),
            ProgramContext(name: "global", context: coordinator.global, kind: .concurrent, group: 4),
            ProgramContext(name: "direct", context: coordinator.direct, kind: .direct, group: 5),
        ]
    }
}
