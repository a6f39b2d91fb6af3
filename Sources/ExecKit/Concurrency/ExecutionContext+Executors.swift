// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

extension ExecutionContext {
    /// A new `TaskExecutor` that runs every job through this context's ``invokeAsync(_:)``, keeping the context alive.
    /// <!-- G-custom-task-executor-default -->
    ///
    /// - Cost: one allocation per access, and two per job (the job on its way, and the closure that carries it).
    ///   <!-- G-task-job-allocations -->
    /// - Priority: `invokeAsync` takes none, so a job's priority is not passed on.
    public var taskExecutor: any TaskExecutor {
        ContextTaskExecutor(context: self)
    }

    /// Stops the program with a message: this context does not provide a serial executor.
    /// <!-- G-custom-no-serial-executor -->
    ///
    /// Implement it in a serial context of your own; see ``ExecutionContext/unownedSerialExecutor``.
    public var unownedSerialExecutor: UnownedSerialExecutor {
        fatalError(
            "ExecKit: \(Self.self) has no serial executor. "
                + (type.isSerial
                    ? "Implement unownedSerialExecutor: keep the executor in the context (a context on a private "
                        + "queue can return Exec.queue(queue, .serialAsync).unownedSerialExecutor)."
                    : "It is concurrent; an actor needs a serial context, such as Exec.custom(context).serialized()."))
    }
}
