// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// `pendingWork` and `assertNoPendingWork` name the source line that scheduled each pending item: the test's own
/// line, or the line of the code under test that scheduled it, never a line inside ExecKit.
@Suite struct CallSiteTests {
    // Guarantees: G-virtual-call-site
    @Test func eachKindOfWorkNamesTheTestLineThatScheduledIt() async {
        let coordinator = TestCoordinator()
        var expected: [PendingWork.Kind: Int] = [:]
        expected[.periodicTimer(interval: .seconds(2))] = #line + 1
        let periodic = coordinator.serialQueue(named: "db").periodicTimer(interval: .seconds(2)) {}
        expected[.singleTimer] = #line + 1
        let single = coordinator.main.singleTimer(interval: .seconds(1)) {}
        expected[.block] = #line + 1
        coordinator.mainAsync.invoke {}
        expected[.job] = #line + 1
        let task = coordinator.task { try await coordinator.clock.sleep(for: .seconds(3)) }

        #expect(Set(coordinator.pendingWork.map(\.kind)) == Set(expected.keys))
        for item in coordinator.pendingWork {
            #expect(item.callSite?.fileName == "CallSiteTests.swift", "\(item)")
            #expect(item.callSite?.path.hasSuffix("Tests/ExecTestingTests/CallSiteTests.swift") == true, "\(item)")
            #expect(item.callSite?.line == expected[item.kind], "\(item)")
        }

        coordinator.runUntilIdle()  // the task starts and sleeps, on the line that started it
        let sleep = coordinator.pendingWork.first { $0.kind == .sleep }
        #expect(sleep?.callSite == PendingWork.CallSite(path: #filePath, line: expected[.job] ?? 0))
        task.cancel()
        coordinator.runUntilIdle()
        _ = await task.result
        withExtendedLifetime((periodic, single)) {}
    }

    // Guarantees: G-virtual-call-site
    @Test func workScheduledByCodeUnderTestNamesThatCodesLine() {
        let coordinator = TestCoordinator()
        let poller = Poller(context: coordinator.global)
        poller.start()
        let pending = coordinator.pendingWork
        #expect(pending.map(\.kind) == [.periodicTimer(interval: .seconds(10))])
        #expect(pending.first?.callSite == PendingWork.CallSite(path: #filePath, line: poller.timerLine))
        poller.stop()
    }

    // Guarantees: G-virtual-call-site
    // Optimized, the closure is inlined into `map`, which is inlined and unrolled into the test. The toolchain's
    // `Runtime` module (Swift 6.3.1) then finds the inlined closure's frame at some of the three calls and not at the
    // others (llvm-symbolizer finds it at all three): there the line named is the `map` call's, as documented for
    // optimized builds. Either way it is a line of the test, never one inside ExecKit.
    @Test func aBlockScheduledInsideAHelperClosureNamesTheClosuresLine() {
        let coordinator = TestCoordinator()
        let mapLine = #line + 1
        let lines = [0, 1, 2].map { index in
            coordinator.global.invoke {}
            return #line - 1
        }
        let named = coordinator.pendingWork.map(\.callSite)
        if isDebugBuild {
            #expect(named.map { $0?.line } == lines)
        } else {
            for (callSite, closureLine) in zip(named, lines) {
                #expect(callSite?.path == #filePath)
                #expect(callSite?.line == closureLine || callSite?.line == mapLine, "\(String(describing: callSite))")
            }
        }
        coordinator.runUntilIdle()
    }

    // Guarantees: G-virtual-call-site
    @Test func schedulingsAlongOnePathShareItsSiteAndAnotherLineGetsItsOwn() {
        let coordinator = TestCoordinator()
        var timers: [any Lifetime] = []
        let firstLine = #line + 2
        for index in 0..<1_000 {
            timers.append(coordinator.global.singleTimer(interval: .seconds(1 + index)) {})
        }
        let secondLine = #line + 2
        for index in 0..<1_000 {
            timers.append(coordinator.global.singleTimer(interval: .seconds(2_000 + index)) {})
        }
        let lines = coordinator.pendingWork.map(\.callSite?.line)
        #expect(lines == Array(repeating: firstLine, count: 1_000) + Array(repeating: secondLine, count: 1_000))
        withExtendedLifetime(timers) {}
    }

    // Guarantees: G-virtual-call-site
    // Debug builds only: optimized, the two functions are inlined into the tasks' closures, and the code after each
    // `await` is folded into one jump that the two closures share and that has no line (seen with Swift 6.3.1).
    @Test(.enabled(if: isDebugBuild)) func sleepsAwaitedFromTwoFunctionsNameTheirOwnLines() async {
        // A sleep's caller awaits it, so it is not on the thread's stack: its site cannot be reused from a path.
        let coordinator = TestCoordinator()
        let clock = coordinator.clock
        let firstLine = #line + 1
        @Sendable func first() async throws { try await clock.sleep(for: .seconds(1)) }
        let secondLine = #line + 1
        @Sendable func second() async throws { try await clock.sleep(for: .seconds(2)) }
        let tasks = [coordinator.task { try await first() }, coordinator.task { try await second() }]
        coordinator.runUntilIdle()
        let sleeps = coordinator.pendingWork.filter { $0.kind == .sleep }
        #expect(sleeps.map(\.callSite?.line) == [firstLine, secondLine])
        for task in tasks { task.cancel() }
        coordinator.runUntilIdle()
    }

    // Guarantees: G-virtual-call-site
    @Test func blocksScheduledByAwaitedLibraryCodeNameEachAwaitingLine() {
        // `perform` schedules its block from ExecKit's own async code: the awaiting line is an async frame, off the
        // thread's stack, so the two calls share a stack path and differ only in their async callers.
        let coordinator = TestCoordinator(hopLatency: .seconds(1))
        let context = coordinator.serialQueue(named: "q")
        let firstLine = #line + 1
        let first = coordinator.task { await context.perform { 1 } }
        let secondLine = #line + 1
        let second = coordinator.task { await context.perform { 2 } }
        coordinator.advance(by: .seconds(1))  // both tasks start; each perform queues its block, due a hop later
        let blocks = coordinator.pendingWork.filter { $0.kind == .block }
        #expect(blocks.map(\.callSite?.line) == [firstLine, secondLine])
        coordinator.run()
        withExtendedLifetime((first, second)) {}
    }

    // Guarantees: G-virtual-call-site
    @Test func theTeardownMessageListsEachItemWithItsLine() {
        let coordinator = TestCoordinator()
        let timerLine = #line + 1
        let timer = coordinator.main.singleTimer(interval: .seconds(5)) {}
        var reports: [String] = []
        coordinator.assertNoPendingWork { reports.append($0) }
        #expect(reports.count == 1)
        #expect(
            reports.first?.contains(
                "timer on \"main\", due at 5.0 s (#0), scheduled at CallSiteTests.swift:\(timerLine)")
                == true, "\(reports)")
        timer.cancel()
        coordinator.assertNoPendingWork { Issue.record(Comment(rawValue: $0)) }
    }

    // Guarantees: G-virtual-call-sites-optional
    @Test func aCoordinatorThatRecordsNoCallSitesListsNoneAndSaysHowToGetThem() {
        let coordinator = TestCoordinator(recordsCallSites: false)
        coordinator.main.invoke {}
        #expect(coordinator.pendingWork.map(\.callSite) == [nil])
        #expect(coordinator.pendingWork.first?.description == "block on \"main\", due at 0.0 s (#0)")
        var reports: [String] = []
        coordinator.assertNoPendingWork { reports.append($0) }
        #expect(reports.first?.contains("recordsCallSites: true") == true)
        coordinator.runUntilIdle()
    }

    @Test func listedItemsEqualDescriptionsWithTheSameCallSite() {
        let coordinator = TestCoordinator()
        let line = #line + 1
        coordinator.global.invoke {}
        let expected = PendingWork(
            kind: .block, queueName: "global", deadline: coordinator.now, sequence: 0,
            callSite: .init(path: #filePath, line: line))
        #expect(coordinator.pendingWork == [expected])
        let elsewhere = PendingWork(
            kind: .block, queueName: "global", deadline: coordinator.now, sequence: 0,
            callSite: .init(path: #filePath, line: line + 1))
        #expect(coordinator.pendingWork != [elsewhere])
        coordinator.runUntilIdle()
    }
}

/// Whether the tests were built without optimization.
private let isDebugBuild: Bool = {
    #if DEBUG
    true
    #else
    false
    #endif
}()

/// Code under test: starts a timer on a context it is given, and notes the line that starts it.
private final class Poller: @unchecked Sendable {  // used on the test's thread only
    private let context: Exec
    private var timer: (any Lifetime)?
    private(set) var timerLine = 0

    init(context: Exec) { self.context = context }

    func start() {
        timerLine = #line + 1
        timer = context.periodicTimer(interval: .seconds(10)) {}
    }

    func stop() { timer?.cancel() }
}
