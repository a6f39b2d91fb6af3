// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

/// `serialized()` makes a new serial context on each call: two results of the same context's `serialized()` do not
/// exclude each other, so a block of one runs while a block of the other is still running.
@Suite struct SerializedNewEachCallTests {
    /// The contexts for which `serialized()` makes a new serial context (the serial ones are returned unchanged).
    enum Source: String, CaseIterable, Sendable {
        case direct, utility, concurrentQueue, immediateQueue, concurrentCustom, immediateCustom

        func make() -> Exec {
            switch self {
            case .direct: return .direct
            case .utility: return .utility
            case .concurrentQueue:
                return .queue(DispatchQueue(label: "concurrent", attributes: .concurrent), .concurrentAsync)
            case .immediateQueue:
                return .queue(DispatchQueue(label: "concurrent", attributes: .concurrent), .immediate)
            case .concurrentCustom: return .custom(ConcurrentTestContext())
            case .immediateCustom: return .custom(CountingImmediateContext())
            }
        }
    }

    /// Whether a block of `second` runs while a block of `first` is still running.
    ///
    /// The first block waits for the second one to run. If the two contexts were one serial context, the second block
    /// could start only after the first had given up waiting (a generous bound, so a loaded machine does not fail the
    /// test): then the answer is `false`, without hanging. Each `invoke` is called on a thread of its own, since on a
    /// mutex context it runs the block on the caller's thread.
    private static func overlap(_ first: Exec, _ second: Exec) -> Bool {
        let firstEntered = DispatchSemaphore(value: 0)
        let secondRan = DispatchSemaphore(value: 0)
        let sawSecond = Recorder<Bool>()
        startDetachedThread {
            first.invoke {
                firstEntered.signal()
                sawSecond.record(secondRan.wait(timeout: .now() + 10) == .success)
            }
        }
        guard firstEntered.wait(timeout: .now() + 10) == .success else { return false }
        startDetachedThread { second.invoke { secondRan.signal() } }
        return sawSecond.wait(timeout: 30) && sawSecond.recorded == [true]
    }

    // Guarantees: G-serialized-new-each-call
    @Test(arguments: Source.allCases)
    func twoSerializedResultsOfOneContextDoNotExcludeEachOther(source: Source) {
        let context = source.make()
        let first = context.serialized()
        let second = context.serialized()
        #expect(first.type.isSerial && second.type.isSerial)
        #expect(Self.overlap(first, second), "a block of the second result must run while one of the first runs")
    }
}
