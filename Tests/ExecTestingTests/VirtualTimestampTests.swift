// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecTesting
import Testing

/// Every context a coordinator hands out, and every context derived from one, whether the derivation wraps it or
/// returns it unchanged.
enum CoordinatorContext: CaseIterable, Sendable, CustomTestStringConvertible {
    case direct, main, mainAsync, global, serialAsync, mutex, conditionallyAsync
    case mainSerialized, serialQueueSerialized, globalAlwaysAsync, mainAsyncAlwaysAsync
    case derived(DerivedContext)

    static var allCases: [CoordinatorContext] {
        [
            .direct, .main, .mainAsync, .global, .serialAsync, .mutex, .conditionallyAsync, .mainSerialized,
            .serialQueueSerialized, .globalAlwaysAsync, .mainAsyncAlwaysAsync,
        ] + DerivedContext.allCases.map { .derived($0) }
    }

    var testDescription: String {
        if case .derived(let derived) = self { return derived.rawValue }
        return "\(self)"
    }

    func make(_ coordinator: TestCoordinator) -> Exec {
        switch self {
        case .direct: return coordinator.direct
        case .main: return coordinator.main
        case .mainAsync: return coordinator.mainAsync
        case .global: return coordinator.global
        case .serialAsync: return coordinator.serialQueue(named: "s")
        case .mutex: return coordinator.serialQueue(named: "m", type: .mutex)
        case .conditionallyAsync: return coordinator.serialQueue(named: "c", type: .conditionallyAsync(true))
        case .mainSerialized: return coordinator.main.serialized()
        case .serialQueueSerialized: return coordinator.serialQueue(named: "s").serialized()
        case .globalAlwaysAsync: return coordinator.global.alwaysAsync()
        case .mainAsyncAlwaysAsync: return coordinator.mainAsync.alwaysAsync()
        case .derived(let derived): return derived.make(coordinator)
        }
    }
}

/// `timestamp()` on a coordinator's contexts, and on the contexts derived from them, reads the coordinator's virtual
/// time: at the start, after an advance, and inside a handler running at its deadline.
@Suite struct VirtualTimestampTests {
    // Guarantees: G-virtual-timer-deadlines, G-virtual-start-125ns, G-custom-derived-keeps-clock
    @Test(arguments: CoordinatorContext.allCases)
    func timestampIsTheCoordinatorsVirtualNow(_ kind: CoordinatorContext) {
        let coordinator = TestCoordinator()
        let context = kind.make(coordinator)
        #expect(context.timestamp() == coordinator.now, "\(kind): at the start")
        #expect(context.timestamp() == DispatchTime(uptimeNanoseconds: 125), "\(kind): virtual time starts at 125 ns")

        coordinator.advance(by: .milliseconds(1_500))
        #expect(context.timestamp() == coordinator.now, "\(kind): after an advance")
        #expect(context.timestamp() == DispatchTime(uptimeNanoseconds: 125 + 1_500_000_000), "\(kind)")

        let inside = Shared<DispatchTime?>(nil)
        let timer = context.singleTimer(interval: .seconds(2)) { inside.value = context.timestamp() }
        coordinator.advance(by: .seconds(5))
        #expect(inside.value == DispatchTime(uptimeNanoseconds: 125 + 3_500_000_000), "\(kind): inside the handler")
        #expect(context.timestamp() == coordinator.now, "\(kind): after the handler")
        withExtendedLifetime(timer) {}
    }
}
