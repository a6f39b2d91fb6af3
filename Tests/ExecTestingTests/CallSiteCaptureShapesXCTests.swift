// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTesting
import XCTest

/// The call-site shapes of ``CallSiteCaptureShapesTests`` in XCTest's assertions, whose autoclosures run the helper
/// from inside libXCTest (issue #38).
// Guarantees: G-virtual-call-site-never-crashes, G-virtual-call-site
final class CallSiteCaptureShapesXCTests: XCTestCase {
    func testHelpersInsideAssertions() throws {
        XCTAssertTrue(schedulesAndNamesItsLine(TestCoordinator()))
        XCTAssertTrue(armsATimerAndNamesItsLines(TestCoordinator()))
        XCTAssertTrue(SchedulingHelper(coordinator: TestCoordinator()).schedules())
        XCTAssertTrue(SchedulingHelper.schedules(on: TestCoordinator()))
        XCTAssertTrue(schedulesGenerically(TestCoordinator(), carrying: "payload"))
        XCTAssertEqual(try XCTUnwrap(Optional(schedulesAndNamesItsLine(TestCoordinator()))), true)
        let schedules = { schedulesAndNamesItsLine(TestCoordinator()) }
        XCTAssertTrue(schedules())
    }

    func testAnAsyncHelper() async {
        let named = await schedulesFromAnAsyncHelper(TestCoordinator())
        XCTAssertTrue(named)
    }

    func testHelpersInsideAssertionsUnderExploration() {
        let report = TestCoordinator.explore(.random, iterations: 20) { coordinator in
            XCTAssertTrue(schedulesAndNamesItsLine(coordinator))
            XCTAssertTrue(armsATimerAndNamesItsLines(coordinator))
            XCTAssertTrue(try XCTUnwrap(Optional(schedulesGenerically(coordinator, carrying: 1))))
        } reportFailure: {
            XCTFail($0)
        }
        XCTAssertNil(report.failure)
    }
}
