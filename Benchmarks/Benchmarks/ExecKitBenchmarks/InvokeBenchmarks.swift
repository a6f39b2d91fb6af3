// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// The immediate paths: what a callback API pays to honour `context: Exec` when the caller passed `.direct` (or an
// immediate context of its own). The context reaches the API as a parameter of a function the optimizer may not
// inline, as it does in real code; `identity` hides its value from the optimizer.

import Benchmark
import BenchmarkSupport
import ExecKit

func registerInvokeBenchmarks() {
    let direct: Exec = identity(.direct)

    // The delivery step written as `context.invoke(completion, with: value)`: no closure is formed on `.direct`.
    Benchmark("Exec.direct.invokeWithValue", configuration: Suite.configuration()) { benchmark in
        let cell = Cell()
        benchmark.startMeasurement()  // allocating the cell is set-up, not measured
        for _ in benchmark.scaledIterations { invokeWithValueThroughParameter(direct, cell) }
        blackHole(cell.value)
    }
    registerClosureCallBaseline(for: "Exec.direct.invokeWithValue")

    // A closure literal capturing one object (the common `self` capture): its context is the object, nothing is
    // allocated.
    Benchmark("Exec.direct.invoke.capturingObject", configuration: Suite.configuration()) { benchmark in
        let counter = Counter()
        benchmark.startMeasurement()  // allocating the counter is set-up, not measured
        for _ in benchmark.scaledIterations { invokeCapturingObject(direct, counter) }
        blackHole(counter.value)
    }
    Benchmark("Exec.direct.invoke.capturingObject (baseline: closure call)", configuration: Suite.configuration()) {
        benchmark in
        let counter = Counter()
        benchmark.startMeasurement()  // allocating the counter is set-up, not measured
        for _ in benchmark.scaledIterations { callClosureCapturingObject(counter) }
        blackHole(counter.value)
    }

    // A closure literal capturing a value: Swift allocates the escaping closure's context in the caller, before
    // `invoke` can see the context is `.direct`. Kept to show that cost; `invokeWithValue` is the way around it.
    Benchmark("Exec.direct.invoke.capturingValue", configuration: Suite.configuration()) { benchmark in
        let cell = Cell()
        benchmark.startMeasurement()  // allocating the cell is set-up, not measured
        for _ in benchmark.scaledIterations { invokeThroughParameter(direct, cell) }
        blackHole(cell.value)
    }
    registerClosureCallBaseline(for: "Exec.direct.invoke.capturingValue")

    // The delivery step as a callback API writes it: `context.invoke(completion, with: result)` with `completion` a
    // closure *value* (a parameter). Swift passes it to the generic `invoke(_:with:)` through a reabstraction thunk
    // whose context (32 bytes) it allocates in the caller, before the context is looked at: one malloc per call,
    // on `.direct` too. `switch context { case .direct: completion(value) ... }` avoids it (Exec.switch.case.direct).
    Benchmark("Exec.direct.invokeWithValue.closureValue", configuration: Suite.configuration()) { benchmark in
        let cell = Cell()
        let completion = opaqueHandler { (cell: Cell) in cell.increment() }
        benchmark.startMeasurement()  // the cell and the closure are set-up, not measured
        for _ in benchmark.scaledIterations { invokeExistingWithValue(direct, completion, cell) }
        blackHole(cell.value)
    }
    registerClosureCallBaseline(for: "Exec.direct.invokeWithValue.closureValue")

    // The callback API's usual case: the completion already exists as a closure value, so invoking it forms none.
    Benchmark("Exec.direct.invoke.existingClosure", configuration: Suite.configuration()) { benchmark in
        let cell = Cell()
        let completion = opaque { cell.increment() }
        benchmark.startMeasurement()  // the cell and the closure are set-up, not measured
        for _ in benchmark.scaledIterations { invokeExisting(direct, completion) }
        blackHole(cell.value)
    }
    Benchmark("Exec.direct.invoke.existingClosure (baseline: closure call)", configuration: Suite.configuration()) {
        benchmark in
        let cell = Cell()
        let completion = opaque { cell.increment() }
        benchmark.startMeasurement()  // the cell and the closure are set-up, not measured
        for _ in benchmark.scaledIterations { callExisting(completion) }
        blackHole(cell.value)
    }

    Benchmark("Exec.switch.case.direct", configuration: Suite.configuration()) { benchmark in
        let cell = Cell()
        benchmark.startMeasurement()  // allocating the cell is set-up, not measured
        for _ in benchmark.scaledIterations { switchOnDirect(direct, cell) }
        blackHole(cell.value)
    }
    registerClosureCallBaseline(for: "Exec.switch.case.direct")

    let custom: Exec = identity(.custom(ImmediateContext()))
    Benchmark("Exec.custom.immediate.invoke", configuration: Suite.configuration()) { benchmark in
        let cell = Cell()
        benchmark.startMeasurement()  // allocating the cell is set-up, not measured
        for _ in benchmark.scaledIterations { invokeThroughParameter(custom, cell) }
        blackHole(cell.value)
    }
    registerClosureCallBaseline(for: "Exec.custom.immediate.invoke")
}

/// A callback API's last step: run the completion in the caller's context.
@inline(never)
func invokeThroughParameter(_ context: Exec, _ cell: Cell) {
    context.invoke { cell.increment() }
}

/// The same delivery through `invoke(_:with:)`: the handler captures nothing, the value travels beside it.
@inline(never)
func invokeWithValueThroughParameter(_ context: Exec, _ cell: Cell) {
    context.invoke({ (cell: Cell) in cell.increment() }, with: cell)
}

/// A closure capturing one object, as a completion capturing `self` does.
@inline(never)
func invokeCapturingObject(_ context: Exec, _ counter: Counter) {
    context.invoke { counter.increment() }
}

/// The same work without ExecKit.
@inline(never)
func callClosureCapturingObject(_ counter: Counter) {
    let completion: @Sendable () -> Void = { counter.increment() }
    completion()
}

/// An object with a counter, for closures that capture one reference.
final class Counter: @unchecked Sendable {
    // Unchecked: only ever touched by the benchmark's own thread.
    private(set) var value = 0
    @inline(__always) func increment() { value &+= 1 }
}

/// Delivering a completion the API was handed.
@inline(never)
func invokeExisting(_ context: Exec, _ completion: @escaping @Sendable () -> Void) {
    context.invoke(completion)
}

/// Delivering a value to a completion the API was handed.
@inline(never)
func invokeExistingWithValue(_ context: Exec, _ completion: @escaping @Sendable (Cell) -> Void, _ cell: Cell) {
    context.invoke(completion, with: cell)
}

/// Hides a value-taking closure from the optimizer, as a completion handed in by another module would be.
@inline(never)
func opaqueHandler(_ closure: @escaping @Sendable (Cell) -> Void) -> @Sendable (Cell) -> Void { closure }

/// The same without ExecKit.
@inline(never)
func callExisting(_ completion: @escaping @Sendable () -> Void) {
    completion()
}

/// Hides a closure from the optimizer, as a completion handed in by another module would be.
@inline(never)
func opaque(_ closure: @escaping @Sendable () -> Void) -> @Sendable () -> Void { closure }

/// The piggybacking caller's fast path: skip the closure altogether on `.direct`.
@inline(never)
func switchOnDirect(_ context: Exec, _ cell: Cell) {
    switch context {
    case .direct: cell.increment()
    default: context.invoke { cell.increment() }
    }
}

/// Registers `"<name> (baseline: closure call)"`: the same work as `name` without ExecKit, `callClosureDirectly`, on
/// the main queue when `onMainQueue` is set. Only the sample is wrapped; each operation is the bare call.
func registerClosureCallBaseline(for name: String, onMainQueue: Bool = false) {
    Benchmark("\(name) (baseline: closure call)", configuration: Suite.configuration()) { benchmark in
        let cell = Cell()
        benchmark.startMeasurement()  // allocating the cell is set-up, not measured
        let sample = { for _ in benchmark.scaledIterations { callClosureDirectly(cell) } }
        if onMainQueue { ExecKitBenchmarks.onMainQueue(sample) } else { sample() }
        blackHole(cell.value)
    }
}

/// The same work without ExecKit: build the capturing closure and call it.
@inline(never)
func callClosureDirectly(_ cell: Cell) {
    let completion: @Sendable () -> Void = { cell.increment() }
    completion()
}

/// A user's own immediate context, implementing only the protocol's four requirements.
struct ImmediateContext: ExecutionContext {
    var type: ExecutionType { .immediate }
    func invoke(_ execute: @escaping @Sendable () -> Void) { execute() }
    func invokeAsync(_ execute: @escaping @Sendable () -> Void) { DispatchQueue.global().async(execute: execute) }
    func invokeAndWait(_ execute: @escaping @Sendable () -> Void) { execute() }
}
