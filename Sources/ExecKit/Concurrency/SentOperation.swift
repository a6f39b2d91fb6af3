// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

/// An operation on its way into the task that runs it. `@unchecked Sendable`: the operation was passed as `sending`, so
/// no other code holds it, and only that task calls it.
struct SentOperation<Body>: @unchecked Sendable {
    let body: Body
    init(_ body: Body) { self.body = body }
}
