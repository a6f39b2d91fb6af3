// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

import Dispatch
import ExecDispatch
import Foundation
import Testing

/// The object a queue keeps for ExecKit (a timer engine, executors): found on that queue only, released with it.
@Suite struct QueueAttachmentTests {
    final class Token: Sendable {}

    @Test func anAttachedObjectIsFoundOnItsQueueOnly() {
        let attachment = QueueAttachment<Token>()
        let queue = DispatchQueue(label: "holder")
        let child = DispatchQueue(label: "child", target: queue)
        #expect(attachment.object(on: queue) == nil)
        let token = Token()
        attachment.attach(token, to: queue)
        #expect(attachment.object(on: queue) === token)
        #expect(attachment.object(on: child) == nil)  // the queue itself, not its targets
        #expect(QueueAttachment<Token>().object(on: queue) == nil)  // another attachment, another key
    }

    @Test func theQueueReleasesItsObjectWhenItIsDeallocated() async throws {
        let attachment = QueueAttachment<Token>()
        weak var weakToken: Token?
        do {
            let queue = DispatchQueue(label: "short-lived")
            let token = Token()
            weakToken = token
            attachment.attach(token, to: queue)
            queue.sync {}
        }
        let deadline = Date().addingTimeInterval(10)
        while weakToken != nil && Date() < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(weakToken == nil)
    }
}
