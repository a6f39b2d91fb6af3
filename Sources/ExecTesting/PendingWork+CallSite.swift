// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

extension PendingWork {
    /// The source line that scheduled a piece of work: the innermost frame of the scheduling call's stack that is
    /// neither ExecKit's (any of its modules) nor the standard library's, the Swift runtime's or a system library's.
    ///
    /// For `coordinator.main.invoke { … }` written in a test, that is the test's line. For a timer started by the code
    /// under test, it is the line in that code that started it. For a task job, it is the line that started the task
    /// (`coordinator.task { … }`, `Task(executorPreference:)`) or the line of the task's own code that resumed it. For
    /// a clock sleep, it is the line that called `sleep`. <!-- G-virtual-call-site -->
    public struct CallSite: Sendable, Hashable, CustomStringConvertible {
        /// The source file's path, as the debug information records it (usually absolute).
        public let path: String
        /// The line, from 1.
        public let line: Int

        /// Creates a call site; the coordinator makes these, tests compare them.
        public init(path: String, line: Int) {
            self.path = path
            self.line = line
        }

        /// The last component of ``path``, such as `MyTests.swift`.
        public var fileName: String {
            guard let slash = path.lastIndex(of: "/") else { return path }
            return String(path[path.index(after: slash)...])
        }

        /// `fileName:line`, such as `MyTests.swift:42`.
        public var description: String { "\(fileName):\(line)" }
    }
}
