// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.

public import Dispatch

extension DispatchTime {
    /// The time elapsed from `earlier` to this time; negative when `earlier` is later.
    ///
    /// - Complexity: O(1); saturates instead of overflowing. <!-- G-dispatch-since-saturates -->
    public func since(_ earlier: DispatchTime) -> DispatchTimeInterval {
        let later = uptimeNanoseconds
        let start = earlier.uptimeNanoseconds
        if later >= start {
            let difference = later - start
            return difference >= UInt64(Int64.max) ? .never : .fromNanoseconds(Int64(difference))
        }
        let difference = start - later
        return .fromNanoseconds(difference >= UInt64(Int64.max) ? .min : -Int64(difference))
    }
}
