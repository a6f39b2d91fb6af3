// Takes the address of every function the ExecKit C shim's headers define, so that compiling this file for an Apple
// target references every symbol the shim can reach (.ci/check-apple-shim.sh lists and checks them).
#include "CExecDispatchShims.h"

void *execkit_every_shim_function[] = {
    (void *)execkit_current_queue,
    (void *)execkit_main_queue,
    (void *)execkit_is_main_queue_current,
    (void *)execkit_current_queue_reader_is_present,
    (void *)execkit_disable_current_queue_reader,
    (void *)execkit_raw_queue_layout,
    (void *)execkit_set_raw_queue_layout,
    (void *)execkit_dispatch_async_f,
    (void *)execkit_dispatch_get_global_queue,
    (void *)execkit_dispatch_sync_f,
    (void *)execkit_dispatch_async_and_wait_f,
    (void *)execkit_dispatch_get_specific,
    (void *)execkit_dispatch_queue_get_specific,
    (void *)execkit_dispatch_queue_set_specific,
    (void *)execkit_capture_return_addresses,
    (void *)execkit_async_resume_points,
    (void *)execkit_read_memory,
    (void *)execkit_read_memory_below,
    (void *)execkit_entered_queue_record_head,
    (void *)execkit_set_entered_queue_record_head,
    (void *)execkit_timer_engine_cache,
    (void *)execkit_set_timer_engine_cache,
    (void *)execkit_running_job,
    (void *)execkit_set_running_job,
    (void *)execkit_submitting_block,
    (void *)execkit_set_submitting_block,
};
