#!/usr/bin/env bash
# ExecKit's C shim links libdispatch and libpthread symbols directly. Nothing here can build for Apple platforms, but
# clang can compile the shim for them without an SDK (it includes no system header there): this compiles the shim and
# a file that uses every function its headers define for four Apple targets, and checks the symbols they reference.
# - Only public symbols (vm_read_overwrite and mach_task_self_ for the call-site walk's safe reads; the stack protector's
#   two, for its buffer), plus `_dispatch_main_q`, which Apple's own <dispatch/dispatch.h> expands `dispatch_get_main_queue()`
#   to. (In Mach-O every C name gains a leading underscore, so a private name shows as `__name`.)
# - `dispatch_get_current_queue` weak, since Apple marks it for removal and ExecKit falls back when it is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
clang=$(dirname "$(command -v swift)")/clang
nm=$(dirname "$(command -v swift)")/llvm-nm
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
allowed='^(_dispatch_async_f|_dispatch_sync_f|_dispatch_async_and_wait_f|_dispatch_get_global_queue|_dispatch_get_specific|_dispatch_queue_get_specific|_dispatch_queue_set_specific|_dispatch_get_current_queue|__dispatch_main_q|_pthread_self|_pthread_get_stackaddr_np|_pthread_get_stacksize_np|_vm_read_overwrite|_mach_task_self_|___stack_chk_fail|___stack_chk_guard|__tlv_bootstrap)$'
status=0
for target in arm64-apple-macos15 arm64-apple-ios18 arm64_32-apple-watchos11 arm64-apple-xros2; do
    for source in Sources/CExecDispatchShims/CExecDispatchShims.c .ci/apple-shim-references.c; do
        "$clang" -target "$target" -nostdlibinc -O2 -Werror -c "$source" -I Sources/CExecDispatchShims/include \
            -o "$work/$target-$(basename "$source").o"
    done
    # `llvm-nm -m` marks weak references "weak external"; symbols one object defines for the other are not references.
    listing=$("$nm" -m "$work/$target-"*.o)
    defined=$(grep -v "(undefined)" <<<"$listing" | grep " external " | awk '{print $NF}' | sort -u)
    symbols=$(grep "(undefined)" <<<"$listing" | awk '{print ($2 == "weak" ? "w" : "U"), $NF}' | sort -u \
        | grep -vwFf <(printf '%s\n' $defined) || true)
    unexpected=$(awk '{print $2}' <<<"$symbols" | grep -Ev "$allowed" || true)
    if [ -n "$unexpected" ]; then
        echo "error: $target: the shim references symbols outside the allowed list:" $unexpected >&2
        status=1
    fi
    if ! grep -q "^w _dispatch_get_current_queue$" <<<"$symbols"; then
        echo "error: $target: dispatch_get_current_queue is not weak:" $(grep current_queue <<<"$symbols") >&2
        status=1
    fi
    echo "-- $target:" $(tr '\n' ' ' <<<"$symbols")
done
[ "$status" -eq 0 ] && echo "the C shim compiles for four Apple targets and references only the allowed symbols"
exit "$status"
