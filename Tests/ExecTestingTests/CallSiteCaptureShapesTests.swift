// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTesting
import Testing

/// Capturing a call site never crashes the process, whatever the stack holds, and still names the scheduling line
/// (issue #38). Each helper (Support/CallSiteShapeHelpers.swift) schedules work and checks the line the coordinator
/// names; these call it in the shapes that crashed, or could: inside `#expect` and `#require`, whose expansion calls
/// through Swift Testing's `__checkFunctionCall`, a function built without frame pointers that keeps an argument in
/// the frame-pointer register. CI runs this suite in debug and in release.
// Guarantees: G-virtual-call-site-never-crashes, G-virtual-call-site
@Suite struct CallSiteCaptureShapesTests {
    @Test func aGlobalFunctionInsideExpectAndRequire() throws {
        #expect(schedulesAndNamesItsLine(TestCoordinator()))
        try #require(schedulesAndNamesItsLine(TestCoordinator()))
        #expect(armsATimerAndNamesItsLines(TestCoordinator()))
        try #require(armsATimerAndNamesItsLines(TestCoordinator()))
    }

    @Test func methodsInsideExpectAndRequire() throws {
        let helper = SchedulingHelper(coordinator: TestCoordinator())
        #expect(helper.schedules())
        try #require(helper.schedules())
        #expect(SchedulingHelper.schedules(on: TestCoordinator()))
        try #require(SchedulingHelper.schedules(on: TestCoordinator()))
    }

    @Test func closuresInsideExpectAndRequire() throws {
        let coordinator = TestCoordinator()
        let schedules = { (coordinator: TestCoordinator) -> Bool in
            let line = #line + 1
            coordinator.global.invoke {}
            defer { coordinator.runUntilIdle() }
            return coordinator.pendingWork.first?.callSite?.line == line
        }
        #expect(schedules(coordinator))
        try #require(schedules(coordinator))
        #expect({ schedulesAndNamesItsLine(coordinator) }())
    }

    @Test func genericFunctionsInsideExpectAndRequire() throws {
        #expect(schedulesGenerically(TestCoordinator(), carrying: 1))
        try #require(schedulesGenerically(TestCoordinator(), carrying: "payload"))
        #expect(schedulesGenerically(TestCoordinator(), carrying: [UInt8](repeating: 7, count: 100)))
    }

    @Test func asyncHelpersInsideExpectAndRequire() async throws {
        #expect(await schedulesFromAnAsyncHelper(TestCoordinator()))
        try #require(await schedulesFromAnAsyncHelper(TestCoordinator()))
    }

    @Test func helpersInsideExpectUnderExploration() async throws {
        let report = TestCoordinator.explore(.random, iterations: 20) { coordinator in
            #expect(schedulesAndNamesItsLine(coordinator))
            try #require(armsATimerAndNamesItsLines(coordinator))
            #expect(SchedulingHelper(coordinator: coordinator).schedules())
            #expect(schedulesGenerically(coordinator, carrying: 1))
        }
        #expect(report.failure == nil)
        let asyncReport = await TestCoordinator.explore(.random, iterations: 10) { coordinator in
            #expect(await schedulesFromAnAsyncHelper(coordinator))
        }
        #expect(asyncReport.failure == nil)
    }

    @Test func aFailingExplorationsReportNamesTheLinesInsideTheHelperCalledInExpect() throws {
        let reports = LockedBox<[String]>([])
        let report = TestCoordinator.explore(.random, iterations: 50) { coordinator in
            let log = LockedBox<[String]>([])
            #expect(schedulesOnTwoQueues(coordinator, log: log) == twoQueuesLines)
            coordinator.runUntilIdle()
            try #require(log.withLock { $0 } == ["a", "b"])
        } reportFailure: { message in
            reports.withLock { $0.append(message) }
        }
        let departure = try #require(report.failure?.departures.first)
        #expect(departure.contains("CallSiteShapeHelpers.swift:\(twoQueuesLines[1] ?? 0)"), "\(departure)")
        #expect(departure.contains("CallSiteShapeHelpers.swift:\(twoQueuesLines[0] ?? 0)"), "\(departure)")
        #expect(reports.withLock { $0.count } == 1)
    }
}
