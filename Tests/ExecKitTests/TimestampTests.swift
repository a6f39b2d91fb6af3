// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Testing

/// `timestamp()` is `DispatchTime.now()` on every ready-made context, on the contexts derived from them, and on a
/// custom context that keeps the default: a reading lies between two readings of `DispatchTime.now()` around it.
@Suite struct TimestampTests {
    /// A context and the name a failure reports it by.
    struct NamedContext: Sendable, CustomTestStringConvertible {
        let name: String
        let context: Exec
        var testDescription: String { name }
    }

    static let contexts: [NamedContext] = {
        let queue = DispatchQueue(label: "TimestampTests")
        let types: [(String, ExecutionType)] = [
            ("immediate", .immediate), ("mutex", .mutex), ("serialAsync", .serialAsync),
            ("concurrentAsync", .concurrentAsync), ("conditionallyAsync(true)", .conditionallyAsync(true)),
            ("conditionallyAsync(false)", .conditionallyAsync(false)),
        ]
        let named: [(String, Exec)] =
            [
                (".direct", .direct), (".main", .main), (".mainAsync", .mainAsync), (".mainOrdered", .mainOrdered),
                (".interactive", .interactive), (".user", .user), (".default", .default), (".utility", .utility),
                (".background", .background), ("asyncQueue()", .asyncQueue()), ("syncQueue()", .syncQueue()),
            ]
            + types.map { ("queue(q, .\($0.0))", Exec.queue(queue, $0.1)) }
            + [
                (".direct.serialized()", Exec.direct.serialized()),
                (".utility.serialized()", Exec.utility.serialized()),
                (".main.serialized()", Exec.main.serialized()),
                ("queue(q, .immediate).serialized()", Exec.queue(queue, .immediate).serialized()),
                ("queue(q, .concurrentAsync).serialized()", Exec.queue(queue, .concurrentAsync).serialized()),
                ("custom(serial)", .custom(MinimalSerialContext())),
                ("custom(concurrent)", .custom(ConcurrentTestContext())),
                ("custom(immediate)", .custom(CountingImmediateContext())),
                ("custom(immediate).serialized()", Exec.custom(CountingImmediateContext()).serialized()),
                (".direct.alwaysAsync()", Exec.direct.alwaysAsync()),
                (".main.alwaysAsync()", Exec.main.alwaysAsync()),
                ("syncQueue().alwaysAsync()", Exec.syncQueue().alwaysAsync()),
                ("queue(q, .immediate).alwaysAsync()", Exec.queue(queue, .immediate).alwaysAsync()),
                ("custom(immediate).alwaysAsync()", Exec.custom(CountingImmediateContext()).alwaysAsync()),
            ]
        return named.map { NamedContext(name: $0.0, context: $0.1) }
    }()

    // Guarantees: G-exec-timestamp-now, G-custom-timestamp-default
    @Test(arguments: contexts)
    func timestampIsDispatchTimeNow(_ named: NamedContext) {
        let before = DispatchTime.now().uptimeNanoseconds
        let stamp = named.context.timestamp().uptimeNanoseconds
        let after = DispatchTime.now().uptimeNanoseconds
        #expect(before <= stamp && stamp <= after, "\(named.name): \(stamp) not within [\(before), \(after)]")
    }
}
