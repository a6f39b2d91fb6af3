// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import ExecTesting

/// What `TestCoordinator.explore(.exhaustive)` makes of an ``OracleProgram``: the traces its runs logged, and whether
/// it said it covered every ordering. A unit is a virtual second.
struct OracleExploration {
    let traces: Set<[Int]>
    let coveredEveryOrdering: Bool
    let runs: Int

    init(_ program: OracleProgram, hopLatency: Int = 0, hopSpread: Int = 0, iterations: Int = 200_000) {
        let unit = Duration.seconds(1)
        let horizon = program.horizon(hopLatency: hopLatency, hopSpread: hopSpread)
        let traces = LockedBox<Set<[Int]>>([])
        let report = TestCoordinator.explore(
            .exhaustive, iterations: iterations, recordsCallSites: false, hopLatency: unit * hopLatency,
            hopLatencySpread: unit * hopSpread, interleavesGlobalBlocks: true
        ) { coordinator in
            let queues = (0..<program.queueCount).map { coordinator.serialQueue(named: "q\($0)") }
            let run = OracleRun(program, queues: queues, concurrent: coordinator.global, unit: unit)
            run.start()
            coordinator.advance(by: unit * (horizon + 1))
            // A block held behind a slow one in its FIFO can start later than its own hops add up to.
            for _ in 0..<100 where !coordinator.isIdle { coordinator.advance(by: unit) }
            let log = run.log
            run.finish()
            traces.withLock { _ = $0.insert(log) }
        } reportFailure: { message in
            traces.withLock { _ = $0.insert([-1]) }  // a run that failed (it cannot: the body checks nothing)
            _ = message
        } reportProgress: { _ in
            // A large program's space is cut off by `iterations` and counted as not covered: no line for it.
        }
        self.traces = traces.withLock { $0 }
        coveredEveryOrdering = report.coveredEveryOrdering
        runs = report.runs
    }
}
