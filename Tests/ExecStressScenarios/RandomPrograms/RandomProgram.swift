// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTestSupport

/// A random program: a tree of calls on a pool of contexts. Each body is a list of steps, run in a context; a step
/// that starts work somewhere (an invoke, a timer) carries the body that work runs.
///
/// The generator only picks contexts and calls; whether a synchronous call is allowed (never re-entering a mutex,
/// never waiting against the groups' order) depends on where the body actually runs, so the interpreter decides that
/// at run time and records a skip.
struct RandomProgram: Sendable {
    /// How a single timer's story ends.
    enum TimerFate: Sendable {
        /// Kept until it fires: it fires exactly once.
        case fires
        /// Cancelled right after scheduling (from inside its serial context when the program is there: then it
        /// must never fire).
        case cancelledAtOnce
        /// Its lifetime is dropped right after scheduling: releasing cancels.
        case released
        /// Cancelled by a block queued on its context right after it: whichever runs first wins, and once the
        /// cancel has run inside a serial context the timer never fires.
        case cancelledByALaterBlock
    }

    indirect enum Step: Sendable {
        case invoke(Int, Body)
        case invokeAsync(Int, Body)
        case invokeSync(Int, Body)
        case invokeAfter(Int, milliseconds: Int, Body)
        case singleTimer(Int, milliseconds: Int, TimerFate, Body)
        /// A 1 ms periodic timer that cancels itself from its handler after `ticks` ticks.
        case periodicTimer(Int, ticks: Int, Body)
        /// Asks every context of the pool whether it is current, against what the program knows.
        case probe
        /// Tasks started in the context wait for each other through an actor (issue #27): the shape
        /// `ActorWaitShape.allCases[shape]`, its waiter started first when `waiterFirst`. The actor runs on the
        /// context where it has a serial executor, on a new serial queue otherwise. Every task must finish.
        case actorWait(Int, shape: Int, waiterFirst: Bool)
    }

    struct Body: Sendable {
        let id: Int
        let steps: [Step]
    }

    let seed: UInt64
    let root: Body
    /// How many bodies the program has (ids are `0..<bodyCount`).
    let bodyCount: Int

    /// The program of `seed` over a pool of `contextCount` contexts; `periodic` false leaves periodic timers out.
    init(seed: UInt64, contextCount: Int, periodic: Bool = true) {
        var generator = Generator(random: SplitMix64(seed: seed ^ 0x5052_4F47_5241_4D), contextCount: contextCount)
        generator.actorWaits = SplitMix64(seed: seed ^ 0x4143_544F_52)
        generator.periodic = periodic
        self.seed = seed
        root = generator.body(depth: 0)
        bodyCount = generator.nextID
    }

    private struct Generator {
        var random: SplitMix64
        let contextCount: Int
        var periodic = true
        var nextID = 0
        /// Turns some probes into actor waits. A stream of its own, so that every other choice stays what the seed
        /// gave before actor waits existed.
        var actorWaits = SplitMix64(seed: 0)

        init(random: SplitMix64, contextCount: Int) {
            self.random = random
            self.contextCount = contextCount
        }

        mutating func pick(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

        mutating func body(depth: Int) -> Body {
            let id = nextID
            nextID += 1
            let count = depth >= 4 ? 0 : depth == 0 ? 3 + pick(6) : pick(4)
            var steps: [Step] = []
            for _ in 0..<count { steps.append(step(depth: depth)) }
            return Body(id: id, steps: steps)
        }

        mutating func step(depth: Int) -> Step {
            let context = pick(contextCount)
            switch pick(20) {
            case 0..<4: return .invoke(context, body(depth: depth + 1))
            case 4..<8: return .invokeAsync(context, body(depth: depth + 1))
            case 8..<13: return .invokeSync(context, body(depth: depth + 1))
            case 13: return .invokeAfter(context, milliseconds: pick(3), body(depth: depth + 1))
            case 14, 15:
                let fates: [TimerFate] = [.fires, .fires, .cancelledAtOnce, .released, .cancelledByALaterBlock]
                return .singleTimer(context, milliseconds: pick(4), fates[pick(fates.count)], body(depth: depth + 1))
            case 16 where periodic: return .periodicTimer(context, ticks: 1 + pick(3), body(depth: depth + 2))
            default:
                let choice = Int(actorWaits.next() % 24)
                if choice < 8 { return .actorWait(context, shape: choice % 4, waiterFirst: choice < 4) }
                return .probe
            }
        }
    }
}
