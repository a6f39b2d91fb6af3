// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

// CwlUtils names that ExecKit does not keep. Each is a compile error that names what to write instead, so that code
// migrating from CwlUtils never finds a name missing without a hint (the migration article lists every name).

extension ExecutionType {
    /// CwlUtils' name for ``isImmediate``.
    @available(*, unavailable, renamed: "isImmediate")
    public var isImmediateInCurrentContext: Bool { isImmediate }

    /// CwlUtils' name for `!isImmediate`.
    @available(*, unavailable, message: "use !isImmediate")
    public var isAsyncInCurrentContext: Bool { !isImmediate }

    /// CwlUtils' "immediate whoever calls": in ExecKit, `type == .immediate || type == .mutex`.
    @available(*, unavailable, message: "ExecKit has no such property: write type == .immediate || type == .mutex")
    public var isImmediateAlways: Bool { self == .immediate || self == .mutex }

    /// CwlUtils' "may be asynchronous".
    @available(*, unavailable, message: "ExecKit has no such property: write !isImmediate for the current caller")
    public var isPotentiallyAsync: Bool { !isImmediate }

    /// CwlUtils' name for `!isReentrant`.
    @available(*, unavailable, message: "use !isReentrant")
    public var isNonReentrant: Bool { !isReentrant }
}

extension ExecutionContext {
    /// CwlUtils' shortcut for `type.isImmediate`.
    @available(*, unavailable, message: "use type.isImmediate")
    public var isImmediateInCurrentContext: Bool { type.isImmediate }

    /// CwlUtils' shortcut for `type.isConcurrent`.
    @available(*, unavailable, message: "use type.isConcurrent")
    public var isConcurrent: Bool { type.isConcurrent }

    /// CwlUtils' shortcut for `type.isSerial`.
    @available(*, unavailable, message: "use type.isSerial")
    public var isSerial: Bool { type.isSerial }

    /// CwlUtils' timer, which took `DispatchTimeInterval`.
    @available(
        *, unavailable,
        message: "ExecKit timers take Duration; convert a stored DispatchTimeInterval with Duration(interval)"
    )
    public func singleTimer(
        interval: DispatchTimeInterval, leeway: DispatchTimeInterval = .nanoseconds(0),
        handler: @escaping @Sendable () -> Void
    ) -> any Lifetime {
        fatalError("unavailable")
    }

    /// CwlUtils' timer, which took `DispatchTimeInterval`.
    @available(
        *, unavailable,
        message: "ExecKit timers take Duration; convert a stored DispatchTimeInterval with Duration(interval)"
    )
    public func periodicTimer(
        interval: DispatchTimeInterval, leeway: DispatchTimeInterval = .nanoseconds(0),
        handler: @escaping @Sendable () -> Void
    ) -> any Lifetime {
        fatalError("unavailable")
    }
}

extension Exec {
    /// CwlUtils' default-QoS global queue.
    @available(*, unavailable, renamed: "default")
    public static var global: Exec { .default }

    /// CwlUtils' global queue of a QoS.
    @available(
        *, unavailable,
        message: "use the case for the QoS: .interactive, .user, .default, .utility or .background"
    )
    public static func global(qos: DispatchQoS.QoSClass) -> Exec { .globalCase(qos: qos) }
}

/// CwlUtils' name for ``ExecutionContext``.
@available(*, unavailable, renamed: "ExecutionContext")
public typealias CustomExecutionContext = ExecutionContext

/// CwlUtils' serializing wrapper around a concurrent context.
@available(*, unavailable, message: "use context.serialized(), re-entrant on immediate contexts as this was")
public struct SerializingContext {
    /// CwlUtils' initializer.
    @available(*, unavailable, message: "use context.serialized()")
    public init(concurrentContext: Exec) {}
}
