// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// CwlUtils' test coordinator names, each a compile error naming the replacement (see the migration article).

/// CwlUtils' virtual-time coordinator.
@available(*, unavailable, renamed: "TestCoordinator")
public typealias DebugContextCoordinator = TestCoordinator

/// CwlUtils' name for where a debug context's work ran.
@available(
    *, unavailable,
    message: "read TestCoordinator.currentQueueName (\"main\", \"global\" or a serial queue's name) inside the work"
)
public enum DebugContextThread {}
