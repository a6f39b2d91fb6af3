// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

extension NotificationHub {
    /// The payloads of `name` (for `object`, when given) as an asynchronous sequence.
    ///
    /// ```swift
    /// for await title in hub.notifications(for: .titleChanged) { print(title) }
    /// ```
    ///
    /// - Registration: the observer is added before this returns, so no post made after the call is lost, even one
    ///   made before the first `next()`. <!-- G-hub-stream-registered-at-once --> It is removed when the iterating
    ///   task is cancelled, or when the stream and its iterator are released:
    ///   `for await x in hub.notifications(for: name)` unregisters as soon as the loop is left, while a stream kept in
    ///   a variable stays registered (and keeps buffering) until the variable goes. <!-- G-hub-stream-unregisters -->
    /// - Buffering: payloads are buffered according to `bufferingPolicy`, by default without limit (`.unbounded`):
    ///   a slow consumer loses nothing but lets the buffer grow. Pass `.bufferingNewest(n)` to keep only the latest
    ///   `n` payloads (`.bufferingNewest(1)` suits "current state" notifications). <!-- G-hub-stream-buffering -->
    /// - Hub lifetime: the stream does not keep the hub alive. When the hub is released, the stream finishes: a
    ///   `for await` loop receives the payloads already buffered, then ends. <!-- G-hub-stream-hub-gone -->
    /// - Ordering: payloads come out in the order the posts reached the hub (each one is yielded inside `post`).
    ///   <!-- G-hub-stream-order -->
    /// - Thread-safety: the stream may be created on any thread; iterate it from one task.
    ///   <!-- G-hub-stream-any-thread -->
    public func notifications<Payload: Sendable>(
        for name: NotificationName<Payload>,
        object: AnyObject? = nil,
        bufferingPolicy: AsyncStream<Payload>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<Payload> {
        let (stream, continuation) = AsyncStream.makeStream(of: Payload.self, bufferingPolicy: bufferingPolicy)
        let observation = addObserver(
            for: name,
            object: object,
            context: .direct,
            onHubGone: { continuation.finish() }
        ) { continuation.yield($0) }
        continuation.onTermination = { _ in observation.cancel() }
        return stream
    }
}
