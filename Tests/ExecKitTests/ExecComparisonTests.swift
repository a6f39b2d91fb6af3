// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Testing

/// Comparing contexts the way `Exec`'s documentation tells users to: by pattern matching, with `===` for identity.
@Suite struct ExecComparisonTests {
    /// `Exec` is documented as not `Equatable` (a value-type custom context has no reflexive `==`). Adding the
    /// conformance must come with new documentation; this test is the reminder.
    @Test func execIsDeliberatelyNotEquatable() {
        #expect(!isEquatable(Exec.main))
    }

    @Test func matchingACaseAnswersWhatEqualityWould() {
        let contexts: [Exec] = [.direct, .main, .mainAsync, .mainOrdered, .utility, .asyncQueue()]
        let isMain = contexts.map { context -> Bool in
            if case .main = context { return true }
            return false
        }
        #expect(isMain == [false, true, false, false, false, false])
    }

    @Test func queuesCompareByIdentity() {
        let mine = DispatchQueue(label: "mine")
        let same = Exec.queue(mine, .serialAsync)
        let sameQueueOtherType = Exec.queue(mine, .mutex)
        let other = Exec.queue(DispatchQueue(label: "mine"), .serialAsync)  // same label, another queue
        #expect(runsOn(mine, same))
        #expect(runsOn(mine, sameQueueOtherType))
        #expect(!runsOn(mine, other))
        #expect(!runsOn(mine, .main))
    }

    @Test func classContextsCompareByIdentity() {
        let mine = CountingImmediateContext()
        #expect(isContext(mine, Exec.custom(mine)))
        #expect(!isContext(mine, Exec.custom(CountingImmediateContext())))
        #expect(!isContext(mine, Exec.custom(MinimalSerialContext())), "a value-type context is never `mine`")
        #expect(!isContext(mine, .direct))
    }

    private func isEquatable<T>(_ value: T) -> Bool { value is any Equatable }

    /// The idiom from `Exec`'s documentation for "is this my queue?".
    private func runsOn(_ queue: DispatchQueue, _ context: Exec) -> Bool {
        if case .queue(let candidate, _) = context, candidate === queue { return true }
        return false
    }

    /// The idiom from `Exec`'s documentation for "is this my context?".
    private func isContext(_ mine: some ExecutionContext & AnyObject, _ context: Exec) -> Bool {
        if case .custom(let other) = context, other as AnyObject === mine { return true }
        return false
    }
}
