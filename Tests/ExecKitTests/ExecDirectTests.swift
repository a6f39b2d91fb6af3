// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct ExecDirectTests {
    // Guarantees: G-direct-inline
    @Test func invokeRunsBeforeReturningOnTheCallingThread() {
        let caller = ThreadID.current
        let ranOn = LockedBox<UInt?>(nil)
        Exec.direct.invoke { ranOn.withLock { $0 = ThreadID.current } }
        #expect(ranOn.withLock { $0 } == caller)
        #expect(Exec.direct.type == .immediate)
    }

    // Guarantees: G-invokeasync-never-inline
    @Test func invokeAsyncRunsLaterElsewhere() {
        let recorder = Recorder<UInt>()
        let gate = DispatchSemaphore(value: 0)
        Exec.direct.invokeAsync {
            _ = gate.wait(timeout: .now() + 10)  // bounded: run inline by mistake, it must not hang the suite
            recorder.record(ThreadID.current)
        }
        #expect(recorder.recorded.isEmpty, "invokeAsync must not run the block before returning")
        gate.signal()
        #expect(recorder.wait())
        #expect(recorder.recorded.first != ThreadID.current)
    }

    @Test func invokeSyncReturnsAndRethrows() {
        #expect(Exec.direct.invokeSync { "value" } == "value")
        #expect(throws: TestError.self) { try Exec.direct.invokeSync { throw TestError() } }
        let ran = Flag()
        Exec.direct.invokeAndWait { ran.set() }
        #expect(ran.isSet)
    }

    /// The seed's piggybacking caller: switch on `.direct` and do the work inline, any other context gets a closure.
    @Test func switchingOnDirectDeliversInlineAndOtherwiseInvokes() {
        func deliver(_ value: Int, in context: Exec, to sink: Recorder<Int>) {
            switch context {
            case .direct: sink.record(value)
            default: context.invoke { sink.record(value) }
            }
        }
        let sink = Recorder<Int>()
        deliver(1, in: .direct, to: sink)
        #expect(sink.recorded == [1])
        deliver(2, in: .utility, to: sink)
        #expect(sink.wait(for: 2))
        #expect(sink.recorded == [1, 2])
    }

    // Guarantees: G-exec-one-word
    @Test func execIsOneWord() {
        #expect(MemoryLayout<Exec>.size == MemoryLayout<Int>.size)
    }

    // Guarantees: G-direct-inline
    @Test func invokeWithValueCallsTheHandlerInline() {
        let caller = ThreadID.current
        let received = Recorder<UInt>()
        Exec.direct.invoke({ (value: Int) in received.record(ThreadID.current + UInt(value)) }, with: 1)
        #expect(received.recorded == [caller + 1], "must run on the caller's thread before returning")
    }

    @Test func invokeWithValueGoesThroughEveryContext() {
        let received = Recorder<String>()
        let contexts: [Exec] = [.utility, .asyncQueue(), .syncQueue(), .custom(CountingImmediateContext())]
        for context in contexts {
            context.invoke({ received.record($0) }, with: "\(context.type)")
        }
        #expect(received.wait(for: contexts.count))
        #expect(Set(received.recorded) == Set(contexts.map { "\($0.type)" }))
    }

    /// A requirement, so a caller holding `any ExecutionContext` still gets Exec's inline delivery on `.direct`, and a
    /// context that does not implement it gets the default (through its `invoke`).
    // Guarantees: G-custom-invoke-with-default
    @Test func invokeWithValueThroughTheProtocol() {
        let caller = ThreadID.current
        let received = Recorder<UInt>()
        let erased: any ExecutionContext = Exec.direct
        erased.invoke({ (_: Int) in received.record(ThreadID.current) }, with: 0)
        #expect(received.recorded == [caller])
        let counting = CountingImmediateContext()
        let custom: any ExecutionContext = counting
        custom.invoke({ (_: Int) in received.record(ThreadID.current) }, with: 0)
        #expect(counting.invocations.load(ordering: .relaxed) == 1)
        #expect(received.recorded == [caller, caller])
    }

    // Guarantees: G-exec-timestamp-now
    @Test func timestampIsNow() {
        let before = DispatchTime.now()
        let stamp = Exec.direct.timestamp()
        #expect(stamp >= before)
        #expect(stamp <= DispatchTime.now())
    }
}

/// The calling thread, for "did it run on the same thread" checks.
enum ThreadID {
    static var current: UInt {
        #if canImport(Glibc)
        return UInt(pthread_self())
        #else
        return UInt(bitPattern: Int(bitPattern: pthread_self()))
        #endif
    }
}
