#!/usr/bin/env bash
# Every CwlUtils name that ExecKit does not keep must be a compile error naming the replacement (issue #20): typecheck
# .ci/cwlutils-names.swift against the debug build and expect one message per line. Run after `swift build`.
# Guarantees: G-cwlutils-names-compile-error
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(swift build --show-bin-path)
output=$(swiftc -typecheck -I "$bin/Modules" -Xcc -fmodule-map-file="$bin/CExecDispatchShims.build/module.modulemap" \
    .ci/cwlutils-names.swift 2>&1 || true)
status=0
expect() {
    if ! grep -qF -- "$1" <<<"$output"; then
        echo "error: expected a compile error containing: $1" >&2
        status=1
    fi
}
expect "'singleTimer(interval:leeway:handler:)' is unavailable: ExecKit timers take Duration"
expect "'periodicTimer(interval:leeway:handler:)' is unavailable: ExecKit timers take Duration"
expect "'global' has been renamed to 'default'"
expect "'global(qos:)' is unavailable: use the case for the QoS"
expect "'isImmediateInCurrentContext' has been renamed to 'isImmediate'"
expect "'isAsyncInCurrentContext' is unavailable: use !isImmediate"
expect "'isImmediateAlways' is unavailable"
expect "'isPotentiallyAsync' is unavailable"
expect "'isNonReentrant' is unavailable: use !isReentrant"
expect "'isConcurrent' is unavailable: use type.isConcurrent"
expect "'isSerial' is unavailable: use type.isSerial"
expect "'isImmediateInCurrentContext' is unavailable: use type.isImmediate"
expect "'CustomExecutionContext' has been renamed to 'ExecutionContext'"
expect "'DebugContextCoordinator' has been renamed to 'TestCoordinator'"
expect "'SerializingContext' is unavailable"
expect "'PThreadMutexType' has been renamed to 'Kind'"
expect "'UnfairLock' is unavailable"
literal_line=$(grep -n "^let literal" .ci/cwlutils-names.swift | cut -d: -f1)
if grep -q "cwlutils-names.swift:$literal_line:" <<<"$output"; then
    echo "error: a literal interval no longer compiles (line $literal_line):" >&2
    grep "cwlutils-names.swift:$literal_line:" <<<"$output" >&2
    status=1
fi
[ "$status" -eq 0 ] && echo "every CwlUtils name that ExecKit does not keep names its replacement"
exit "$status"
