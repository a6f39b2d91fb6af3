// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Exit tests (and `Process`) exist on macOS, Linux and Windows only: the test targets also build for iOS, tvOS,
// watchOS and visionOS without them.
#if os(macOS) || os(Linux) || os(Windows)

/// Every misuse stops the program with ExecKit's message, naming the context and what to use instead, including
/// when another queue's `sync` stands between the two entries (libdispatch's own trap prints nothing useful).
// Guarantees: G-misuse-stops-with-message
@Suite struct MisuseExitTests {
    static let syncQueueMessage = "was invoked from inside that same queue, directly or through sync calls"

    @Test func reenteringASyncQueueThroughAnotherQueueStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let lock = Exec.syncQueue(label: "the.lock")
            let other = DispatchQueue(label: "other")
            lock.invokeSync { other.sync { lock.invokeSync {} } }
        }
        #expect(result.standardErrorText.contains(Self.syncQueueMessage))
        #expect(result.standardErrorText.contains("the.lock"))
        #expect(result.standardErrorText.contains("Use invokeAsync"))
    }

    @Test func reenteringASyncQueueFromAnAsyncBlockThroughAnotherQueueStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let lock = Exec.syncQueue(label: "the.lock")
            let other = DispatchQueue(label: "other")
            let done = DispatchSemaphore(value: 0)
            lock.invokeAsync {
                other.sync { lock.invoke {} }; done.signal()
            }
            _ = waitBlocking(done, seconds: 10)  // reached only if the misuse went unnoticed
        }
        #expect(result.standardErrorText.contains(Self.syncQueueMessage))
    }

    @Test func reenteringASyncQueueFromItsOwnTimerThroughAnotherQueueStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let lock = Exec.syncQueue(label: "the.lock")
            let other = DispatchQueue(label: "other")
            let done = DispatchSemaphore(value: 0)
            let timer = lock.singleTimer(interval: .milliseconds(1)) {
                other.sync { lock.invoke {} }; done.signal()
            }
            _ = waitBlocking(done, seconds: 10)
            withExtendedLifetime(timer) {}
        }
        #expect(result.standardErrorText.contains(Self.syncQueueMessage))
    }

    // Guarantees: G-queue-given-type
    @Test func aMutexQueueEnteredThroughAChildQueueStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let parent = DispatchQueue(label: "parent.lock")
            let child = DispatchQueue(label: "child", target: parent)
            child.sync { Exec.queue(parent, .mutex).invoke {} }
        }
        #expect(result.standardErrorText.contains(Self.syncQueueMessage))
        #expect(result.standardErrorText.contains("parent.lock"))
    }

    /// The record of entered queues knows the main queue by its `dispatch_queue_t`: on Linux every
    /// `DispatchQueue.main` is a new wrapper, and a record keyed by the wrapper missed the re-entry (issue #16), which
    /// then died in libdispatch's deadlock trap with no message.
    @Test func reenteringTheMainQueueAsAMutexThroughAnotherQueueStops() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let other = DispatchQueue(label: "other")
            _ = runOnThreads(1) { _ in
                Exec.queue(DispatchQueue.main, .mutex).invokeSync {
                    other.sync { Exec.queue(DispatchQueue.main, .mutex).invokeSync {} }
                }
            }
        }
        #expect(result.standardErrorText.contains(Self.syncQueueMessage))
        #expect(result.standardErrorText.contains("com.apple.main-thread"))
    }

    /// `Exec.main.invokeSync` inside an earlier one, through another queue's `sync`, runs inline, as a serial
    /// asynchronous context does when the caller is inside it, instead of waiting for the main queue forever.
    // Guarantees: G-invokesync-inline-inside
    @Test func mainInvokeSyncInsideItselfThroughAnotherQueueRunsInline() async {
        await #expect(processExitsWith: .success) {
            let other = DispatchQueue(label: "other")
            let ranInline = LockedBox(false)
            let finished = runOnThreads(1, timeout: 20) { _ in
                Exec.main.invokeSync {
                    other.sync { Exec.main.invokeSync { ranInline.withLock { $0 = other.isCurrent } } }
                }
            }
            if !finished || !ranInline.withLock({ $0 }) { exit(1) }
        }
    }

    @Test func aGlobalQueueWithASerialTypeStops() async {
        let asSerial = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Exec.queue(.global(qos: .utility), .serialAsync).invokeSync { 1 }
        }
        #expect(asSerial.standardErrorText.contains("gives a global queue a serial type"))
        #expect(asSerial.standardErrorText.contains("com.apple.root.utility-qos"))
        let asMutex = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Exec.queue(.global(), .mutex).invoke {}
        }
        #expect(asMutex.standardErrorText.contains("gives a global queue a serial type"))
        let asConditional = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Exec.queue(.global(), .conditionallyAsync(false)).isCurrent
        }
        #expect(asConditional.standardErrorText.contains("gives a global queue a serial type"))
    }

    @Test func aNonPositivePeriodNamesTheCallAndWhereItWasMade() async {
        // The line of the call, as the exit test's child process knows it: the macro moves the closure's body into a
        // function of its own, whose source locations are the macro's line, one above the call.
        let macroLine = #line + 1
        let plain = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Exec.utility.periodicTimer(interval: .zero) {}
        }
        #expect(plain.standardErrorText.contains("periodicTimer(interval:handler:) needs a positive interval"))
        let place = plain.standardErrorText
        #expect(
            place.contains("(called at ExecKitTests/MisuseExitTests.swift:\(macroLine))")
                || place.contains("(called at ExecKitTests/MisuseExitTests.swift:\(macroLine + 1))"), "\(place)")
        let withParameter = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Exec.custom(MinimalSerialContext()).periodicTimer(parameter: 1, interval: .seconds(-1)) { _ in }
        }
        #expect(
            withParameter.standardErrorText.contains(
                "periodicTimer(parameter:interval:handler:) needs a positive interval"))
    }
}
#endif
