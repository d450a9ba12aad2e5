//! Running a `pmap`'s tool calls together (`eval/group.rs` gathers them):
//! jobs of tools that can run on another thread ([`Tool::start`]) on at
//! most `max_parallel` short-lived worker threads with the default stack
//! (a job runs a process, waits on an MCP connection or calls Python; it
//! never evaluates PTC-Lisp), while the calling thread runs the calls of
//! tools that cannot, one after the other.
//!
//! [`Tool::start`]: super::tools::Tool::start

use std::collections::VecDeque;
use std::sync::Mutex;

use super::tools::Job;
use crate::value::Value;

/// Most worker threads one batch starts, whatever `max_parallel` says.
const MAX_WORKERS: usize = 64;

/// Runs `jobs` (each with its index into `results`), at most
/// `max_parallel` at once, and `inline` on this thread meanwhile; every
/// answer goes to its index. A panicking job is a failed call.
pub(crate) fn run_jobs(
    jobs: Vec<(usize, Job)>,
    max_parallel: usize,
    results: &mut [Option<Result<Value, String>>],
    inline: impl FnOnce() -> Vec<(usize, Result<Value, String>)>,
) {
    let workers = max_parallel.clamp(1, MAX_WORKERS).min(jobs.len());
    let queue = Mutex::new(jobs.into_iter().collect::<VecDeque<_>>());
    let done: Mutex<Vec<(usize, Result<Value, String>)>> = Mutex::new(Vec::new());
    let here = std::thread::scope(|scope| {
        let mut started = 0;
        for _ in 0..workers {
            let (queue, done) = (&queue, &done);
            let spawned = std::thread::Builder::new()
                .name("ptc-tool-call".into())
                .spawn_scoped(scope, move || loop {
                    let next = queue.lock().unwrap_or_else(|p| p.into_inner()).pop_front();
                    let Some((i, job)) = next else { break };
                    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job))
                        .unwrap_or_else(|_| Err("the tool panicked".into()));
                    done.lock().unwrap_or_else(|p| p.into_inner()).push((i, r));
                });
            if spawned.is_err() {
                break;
            }
            started += 1;
        }
        let here = inline();
        // No worker could start: this thread runs the jobs.
        if started == 0 {
            while let Some((i, job)) = queue.lock().unwrap_or_else(|p| p.into_inner()).pop_front() {
                let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job))
                    .unwrap_or_else(|_| Err("the tool panicked".into()));
                done.lock().unwrap_or_else(|p| p.into_inner()).push((i, r));
            }
        }
        here
    });
    for (i, r) in here
        .into_iter()
        .chain(done.into_inner().unwrap_or_else(|p| p.into_inner()))
    {
        if let Some(slot) = results.get_mut(i) {
            *slot = Some(r);
        }
    }
}
