// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import ExecKit
import ExecNotifications
import ExecTestSupport

/// Notification streams left or cancelled while another thread posts without pause.
enum NotificationScenarios {
    static var all: [StressScenario] {
        [StressScenario("hubStream.cancelWhilePosting", run: streamsCancelledWhilePosting)]
    }

    private static let counter = NotificationName<Int>("stress.counter")

    /// Each round iterates a new stream from a task: even rounds leave the loop after one to three payloads, odd rounds
    /// cancel the task as soon as it starts. Every consumer must end, and see payloads in the order they were posted.
    // Guarantees: G-hub-stream-order
    private static func streamsCancelledWhilePosting(_ rounds: Int) async throws -> String {
        let hub = NotificationHub()
        let stop = AtomicCounters(count: 1)
        let posterDone = Countdown(1)
        let posted = AtomicCounters(count: 1)
        _ = runOnThreads(1, timeout: 0) { _ in  // starts the poster and returns at once
            var value = 0
            while stop.value(0) == 0 {
                value += 1
                hub.post(counter, payload: value)
                _ = posted.exchange(0, value)
            }
            posterDone.arrive()
        }
        var received = 0
        for round in 0..<rounds {
            let wanted = 1 + round % 3
            let stream = hub.notifications(for: counter)
            let consumer = Task.detached { () -> (count: Int, ordered: Bool) in
                var (count, last, ordered) = (0, 0, true)
                for await value in stream {
                    if value <= last { ordered = false }
                    last = value
                    count += 1
                    if round % 2 == 0 && count == wanted { break }
                }
                return (count, ordered)
            }
            if round % 2 == 1 { consumer.cancel() }
            let (count, ordered) = await consumer.value
            try check(ordered, "round \(round): a stream delivered payloads out of posting order")
            if round % 2 == 0 { try check(count == wanted, "round \(round): the loop ended after \(count) payloads") }
            received += count
        }
        _ = stop.exchange(0, 1)
        try check(posterDone.wait(), "the posting thread did not stop")
        return "\(rounds) streams left or cancelled during \(posted.value(0)) posts; \(received) payloads received"
    }
}
