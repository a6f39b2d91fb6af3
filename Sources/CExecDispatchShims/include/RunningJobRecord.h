// Copyright 2026 The ExecKit authors. Licensed under the Apache License, Version 2.0.
//
// The job an ExecKit executor is running on this thread, and the task executor that job's task prefers (ExecKit's
// `ExecutorJobs`), kept in a C thread-local for the reasons EnteredQueueRecord.h gives: an actor's serial executor
// reads it when a task hops in from one of ExecKit's task executors, to learn which task executor the task prefers.
#ifndef EXECKIT_RUNNING_JOB_RECORD_H
#define EXECKIT_RUNNING_JOB_RECORD_H

/// The record of the job this thread runs now (it lives in the frame that runs the job), or null; only ExecKit's
/// `ExecutorJobs` reads or writes it.
extern _Thread_local void *execkit_running_job_record;

/// This thread's running-job record, or null.
static inline void *execkit_running_job(void) {
    return execkit_running_job_record;
}

/// Makes `record` this thread's running-job record (null for none).
static inline void execkit_set_running_job(void *record) {
    execkit_running_job_record = record;
}

#endif
