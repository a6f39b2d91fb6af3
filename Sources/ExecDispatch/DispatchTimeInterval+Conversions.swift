// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

public import Dispatch

extension DispatchTimeInterval {
    /// The interval in seconds; `.never` is `Double.infinity`.
    public var seconds: Double {
        switch self {
        case .never: return .infinity
        default: return Double(nanoseconds) / 1_000_000_000
        }
    }

    /// The interval in nanoseconds, saturating at `Int64.min` and `Int64.max`; `.never` is `Int64.max`.
    /// <!-- G-dispatch-conversions-saturate -->
    public var nanoseconds: Int64 {
        switch self {
        case .seconds(let s): return Int64(s).multipliedSaturating(by: 1_000_000_000)
        case .milliseconds(let ms): return Int64(ms).multipliedSaturating(by: 1_000_000)
        case .microseconds(let us): return Int64(us).multipliedSaturating(by: 1_000)
        case .nanoseconds(let ns): return Int64(ns)
        case .never: return .max
        @unknown default: return .max
        }
    }

    /// An interval of `seconds` seconds, rounded to the nearest nanosecond.
    ///
    /// Non-finite values and values beyond `Int64` nanoseconds saturate: `+infinity` and large values give `.never`,
    /// `-infinity` and large negative values the most negative representable interval; NaN gives zero.
    /// <!-- G-dispatch-conversions-saturate -->
    public static func interval(_ seconds: Double) -> DispatchTimeInterval {
        if seconds.isNaN { return .nanoseconds(0) }
        let ns = (seconds * 1_000_000_000).rounded()
        if ns >= Double(Int64.max) { return .never }
        if ns <= Double(Int64.min) { return .fromNanoseconds(.min) }
        return .fromNanoseconds(Int64(ns))
    }

    /// Converts a `Duration`, rounding toward zero to whole nanoseconds.
    ///
    /// Durations at or beyond `Int64.max` nanoseconds (about 292 years) become `.never`; durations below
    /// `Int64.min` nanoseconds saturate at that value. <!-- G-dispatch-conversions-saturate -->
    public init(_ duration: Duration) {
        if duration == .zero {  // the common leeway, without the 128-bit arithmetic below
            self = .nanoseconds(0)
            return
        }
        let (seconds, attoseconds) = duration.components
        let (wholeNanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, overflowSum) = wholeNanoseconds.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflow || overflowSum || total == .max {
            self = seconds < 0 ? .fromNanoseconds(.min) : .never
        } else {
            self = .fromNanoseconds(total)
        }
    }
}

extension Duration {
    /// Converts a `DispatchTimeInterval`. `.never` becomes `Int64.max` nanoseconds (about 292 years), which converts
    /// back to `.never`. <!-- G-dispatch-never-roundtrip -->
    public init(_ interval: DispatchTimeInterval) {
        self = .nanoseconds(interval.nanoseconds)
    }
}

extension DispatchTimeInterval {
    /// `.nanoseconds(nanoseconds)` where `Int` can hold it; on 32-bit platforms larger values use the finest coarser
    /// unit that fits, rounding toward zero, instead of trapping.
    static func fromNanoseconds(_ nanoseconds: Int64) -> DispatchTimeInterval {
        if let exact = Int(exactly: nanoseconds) { return .nanoseconds(exact) }
        if let micro = Int(exactly: nanoseconds / 1_000) { return .microseconds(micro) }
        if let milli = Int(exactly: nanoseconds / 1_000_000) { return .milliseconds(milli) }
        return .seconds(Int(clamping: nanoseconds / 1_000_000_000))
    }
}

extension Int64 {
    fileprivate func multipliedSaturating(by factor: Int64) -> Int64 {
        let (product, overflow) = multipliedReportingOverflow(by: factor)
        if !overflow { return product }
        return (self < 0) == (factor < 0) ? .max : .min
    }
}
