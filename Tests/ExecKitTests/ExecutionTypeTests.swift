// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Testing

@Suite struct ExecutionTypeTests {
    struct Row: Sendable, CustomTestStringConvertible {
        let type: ExecutionType
        let isImmediate, isConcurrent, isSerial, isReentrant: Bool
        var testDescription: String { "\(type)" }
    }

    static let table: [Row] = [
        Row(type: .immediate, isImmediate: true, isConcurrent: true, isSerial: false, isReentrant: true),
        Row(type: .mutex, isImmediate: true, isConcurrent: false, isSerial: true, isReentrant: false),
        // CwlUtils' answers: a serial asynchronous context of the user's may wait for itself in a nested invokeSync.
        Row(type: .serialAsync, isImmediate: false, isConcurrent: false, isSerial: true, isReentrant: false),
        Row(type: .concurrentAsync, isImmediate: false, isConcurrent: true, isSerial: false, isReentrant: true),
        Row(
            type: .conditionallyAsync(true), isImmediate: false, isConcurrent: false, isSerial: true, isReentrant: true),
        Row(
            type: .conditionallyAsync(false), isImmediate: true, isConcurrent: false, isSerial: true, isReentrant: true),
    ]

    // Guarantees: G-type-predicates-cwlutils
    @Test(arguments: table)
    func predicates(row: Row) {
        #expect(row.type.isImmediate == row.isImmediate)
        #expect(row.type.isConcurrent == row.isConcurrent)
        #expect(row.type.isSerial == row.isSerial)
        #expect(row.type.isReentrant == row.isReentrant)
    }
}
