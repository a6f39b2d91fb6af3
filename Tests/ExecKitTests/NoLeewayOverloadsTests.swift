// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Testing

/// The timer overloads without a `leeway:` argument arm their timer with no leeway. A context of the user's that
/// implements the two `leeway:` requirements sees the leeway every other overload passes it, both when called
/// directly and through `Exec.custom` (whose overloads without leeway are the same protocol defaults that every `Exec`
/// case uses).
@Suite struct NoLeewayOverloadsTests {
    /// Records the interval and leeway of every timer asked of it; its timers never fire.
    final class LeewayRecordingContext: ExecutionContext {
        let armed = LockedBox<[(call: String, interval: Duration, leeway: Duration)]>([])

        var type: ExecutionType { .serialAsync }
        func invoke(_ execute: @escaping @Sendable () -> Void) { DispatchQueue.global().async(execute: execute) }
        func invokeAsync(_ execute: @escaping @Sendable () -> Void) { DispatchQueue.global().async(execute: execute) }
        func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { execute() }

        func singleTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void)
            -> any Lifetime
        {
            armed.withLock { $0.append(("single", interval, leeway)) }
            return NeverFires()
        }

        func periodicTimer(interval: Duration, leeway: Duration, handler: @escaping @Sendable () -> Void)
            -> any Lifetime
        {
            armed.withLock { $0.append(("periodic", interval, leeway)) }
            return NeverFires()
        }

        /// The calls recorded since the last read, as text (tuples are not `Equatable`).
        func takeArmed() -> [String] {
            armed.withLock { armed in
                defer { armed.removeAll() }
                return armed.map { "\($0.call) \($0.interval) leeway \($0.leeway)" }
            }
        }
    }

    final class NeverFires: Lifetime {
        func cancel() {}
    }

    /// Arms one timer through each overload without leeway on `context`.
    private static func armEveryOverloadWithoutLeeway(on context: some ExecutionContext) -> [any Lifetime] {
        [
            context.singleTimer(interval: .seconds(1)) {},
            context.singleTimer(parameter: 1, interval: .seconds(2)) { _ in },
            context.periodicTimer(interval: .seconds(3)) {},
            context.periodicTimer(parameter: 1, interval: .seconds(4)) { _ in },
        ]
    }

    private static let withoutLeeway = [
        "single 1.0 seconds leeway 0.0 seconds", "single 2.0 seconds leeway 0.0 seconds",
        "periodic 3.0 seconds leeway 0.0 seconds", "periodic 4.0 seconds leeway 0.0 seconds",
    ]

    // Guarantees: G-timer-no-leeway-overloads
    @Test func theOverloadsWithoutLeewayArmWithZeroLeeway() {
        let context = LeewayRecordingContext()

        // The recording works: a leeway given is passed on as given.
        let given = context.singleTimer(interval: .seconds(1), leeway: .milliseconds(250)) {}
        #expect(context.takeArmed() == ["single 1.0 seconds leeway 0.25 seconds"])

        let direct = Self.armEveryOverloadWithoutLeeway(on: context)
        #expect(context.takeArmed() == Self.withoutLeeway)

        let throughExec = Self.armEveryOverloadWithoutLeeway(on: Exec.custom(context))
        #expect(context.takeArmed() == Self.withoutLeeway)

        withExtendedLifetime((given, direct, throughExec)) {}
    }
}
