// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTestSupport
import ExecTesting
import Testing

/// Random sequences of invoke, timer, cancel and advance run on the coordinator and on a reference model, a list
/// sorted by time then sequence, and both must run the same blocks at the same instants in the same order.
// Guarantees: G-virtual-deterministic
@Suite struct ReferenceModelTests {
    @Test(arguments: [1 as UInt64, 42, 2_026])
    func theCoordinatorMatchesASortedListModel(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let coordinator = TestCoordinator()
        let contexts = [
            coordinator.main, coordinator.mainAsync, coordinator.global, coordinator.serialQueue(named: "a"),
            coordinator.serialQueue(named: "b"),
        ]
        let ran = EventLog()
        let model = Model()
        let followUps = Shared<[any Lifetime]>([])
        var timers: [(id: Int, lifetime: any Lifetime)] = []
        var nextID = 0

        /// A block that logs itself and, for one id in five, schedules a follow-up, which the model mirrors.
        @Sendable func block(_ id: Int, on context: Exec) -> @Sendable () -> Void {
            return {
                ran.append("\(id)@\(coordinator.elapsedNanoseconds)")
                guard id >= 0 && id % 5 == 0 else { return }
                let followUp = -id - 1
                let delay = Duration.milliseconds(id % 3 * 100)
                if delay == .zero {
                    context.invokeAsync(block(followUp, on: context))
                } else {
                    let timer = context.singleTimer(interval: delay, handler: block(followUp, on: context))
                    followUps.update { $0.append(timer) }
                }
            }
        }

        for _ in 0..<3_000 {
            let context = contexts[Int.random(in: 0..<contexts.count, using: &random)]
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<3:
                let id = nextID
                nextID += 1
                model.schedule(id, after: 0)
                context.invoke(block(id, on: context))
            case 3..<6:
                let id = nextID
                nextID += 1
                let delay = Int.random(in: 0...1_000, using: &random)
                model.schedule(id, after: UInt64(delay) * 1_000_000)
                timers.append(
                    (id, context.singleTimer(interval: .milliseconds(delay), handler: block(id, on: context))))
            case 6..<8:
                guard !timers.isEmpty else { continue }
                let victim = timers.remove(at: Int.random(in: 0..<timers.count, using: &random))
                model.cancel(victim.id)
                victim.lifetime.cancel()
            default:
                let step = UInt64(Int.random(in: 0...500, using: &random)) * 1_000_000
                model.advance(by: step)
                coordinator.advance(by: .nanoseconds(step))
            }
        }
        model.advance(by: 10_000_000_000)
        coordinator.advance(by: .seconds(10))
        #expect(ran.entries.count > 1_000)
        #expect(ran.entries == model.ran)
        #expect(coordinator.isIdle)
        withExtendedLifetime(timers) {}
    }
}

/// The reference: pending blocks in an array kept sorted by (deadline, sequence), run by removing the first.
private final class Model {
    private var pending: [(deadline: UInt64, sequence: Int, id: Int)] = []
    private var now: UInt64 = 0
    private var nextSequence = 0
    private(set) var ran: [String] = []

    func schedule(_ id: Int, after delay: UInt64) {
        let entry = (deadline: now + delay, sequence: nextSequence, id: id)
        nextSequence += 1
        let index =
            pending.firstIndex { ($0.deadline, $0.sequence) > (entry.deadline, entry.sequence) } ?? pending.endIndex
        pending.insert(entry, at: index)
    }

    func cancel(_ id: Int) { pending.removeAll { $0.id == id } }

    func advance(by step: UInt64) {
        let target = now + step
        while let first = pending.first, first.deadline <= target {
            pending.removeFirst()
            now = first.deadline
            ran.append("\(first.id)@\(now)")
            if first.id >= 0 && first.id % 5 == 0 { schedule(-first.id - 1, after: UInt64(first.id % 3) * 100_000_000) }
        }
        now = target
    }
}
