//! The evaluation workers every session of the server shares: at most
//! `workers` threads (started as work arrives, kept for the server's
//! life), each running one job at a time and keeping its evaluation stack
//! (`eval/stack.rs`: a 1 GiB reservation per thread) for the next. The
//! address space the server reserves for stacks is so bounded by the
//! number of workers, not by the number of calls clients send.
//!
//! Jobs wait in one queue; a free worker takes the job with the lowest
//! weight (then the oldest). The weight is the recent busy time of the
//! job's session ([`Load`]): a session whose programs run into their
//! limits goes behind sessions whose programs take milliseconds, so a
//! trivial call waits for a free worker, not for every heavy call queued
//! before it. And a heavy session's job (weight [`HEAVY_MICROS`] or more)
//! never takes the last worker not running one: with two workers or
//! more, one is always there for short calls. The queue itself holds at
//! most one job per session (a session runs one call at a time,
//! `handler.rs`), so it is bounded by the number of sessions.
//!
//! A job that panics is caught: the caller gets an error and the worker
//! goes on.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

/// The stack of a worker thread itself (host code, tools, rendering;
/// programs run on the worker's evaluation stack).
const WORKER_STACK_BYTES: usize = 8 << 20;

type Job = Box<dyn FnOnce() + Send>;

/// The weight from which a session counts as heavy: its recent calls took
/// about this long (a quarter of a second, halved at every call).
pub const HEAVY_MICROS: u64 = 250_000;

/// The shared workers.
pub struct Pool {
    shared: Arc<Shared>,
}

struct Shared {
    state: Mutex<State>,
    ready: Condvar,
    max: usize,
}

#[derive(Default)]
struct State {
    /// Waiting jobs by (weight, arrival).
    jobs: BTreeMap<(u64, u64), Job>,
    next: u64,
    started: usize,
    idle: usize,
    /// Workers running a heavy session's job.
    heavy: usize,
}

/// A session's recent busy time, in microseconds, halved at every call
/// and added to: the weight of its next job.
#[derive(Default)]
pub struct Load(AtomicU64);

impl Load {
    fn weight(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }

    fn add(&self, micros: u64) {
        let old = self.0.load(Ordering::Relaxed);
        self.0
            .store((old / 2).saturating_add(micros), Ordering::Relaxed);
    }
}

impl Pool {
    /// A pool of at most `workers` threads (at least one).
    pub fn new(workers: usize) -> Pool {
        Pool {
            shared: Arc::new(Shared {
                state: Mutex::new(State::default()),
                ready: Condvar::new(),
                max: workers.max(1),
            }),
        }
    }

    /// Runs `f` on a worker once one is free; its result, or an error when
    /// it panicked or no worker could be started. `load` is the session's
    /// (charged with the time `f` took).
    pub async fn run<T: Send + 'static>(
        &self,
        load: &Arc<Load>,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, String> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let charged = load.clone();
        let job: Job = Box::new(move || {
            let start = Instant::now();
            let out = crate::eval::guard::catch_quietly(f);
            charged.add(u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX));
            let _ = tx.send(out);
        });
        self.submit(load.weight(), job)?;
        match rx.await {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(panic)) => Err(format!("ptc crashed while serving the call: {panic}")),
            Err(_) => Err("the evaluation worker stopped without an answer".into()),
        }
    }

    fn submit(&self, weight: u64, job: Job) -> Result<(), String> {
        let mut state = lock(&self.shared.state);
        let seq = state.next;
        state.next += 1;
        state.jobs.insert((weight, seq), job);
        if state.idle == 0 && state.started < self.shared.max {
            let shared = self.shared.clone();
            let n = state.started + 1;
            let spawned = std::thread::Builder::new()
                .name(format!("ptc-mcp-eval-{n}"))
                .stack_size(WORKER_STACK_BYTES)
                .spawn(move || work(&shared));
            match spawned {
                Ok(_) => state.started += 1,
                Err(e) if state.started == 0 => {
                    state.jobs.remove(&(weight, seq));
                    return Err(format!(
                        "cannot start an evaluation worker ({e}): the server is out of threads or memory; try again later"
                    ));
                }
                // The workers already running take it.
                Err(_) => {}
            }
        }
        drop(state);
        self.shared.ready.notify_one();
        Ok(())
    }

    /// How many worker threads run now.
    #[cfg(test)]
    fn started(&self) -> usize {
        lock(&self.shared.state).started
    }

    /// How many jobs wait for a worker.
    #[cfg(test)]
    fn waiting(&self) -> usize {
        lock(&self.shared.state).jobs.len()
    }
}

fn work(shared: &Shared) {
    loop {
        let (job, heavy) = {
            let mut state = lock(&shared.state);
            loop {
                if let Some(&key) = state.jobs.keys().next() {
                    // Jobs are in order of weight: when the first is
                    // heavy, all are.
                    let heavy = key.0 >= HEAVY_MICROS;
                    if !heavy || shared.max < 2 || state.heavy + 1 < shared.max {
                        if let Some(job) = state.jobs.remove(&key) {
                            state.heavy += usize::from(heavy);
                            break (job, heavy);
                        }
                    }
                }
                state.idle += 1;
                state = shared.ready.wait(state).unwrap_or_else(|p| p.into_inner());
                state.idle -= 1;
            }
        };
        job();
        if heavy {
            lock(&shared.state).heavy -= 1;
            // A heavy job may wait for this one's worker.
            shared.ready.notify_all();
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    fn rt() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap()
    }

    #[test]
    fn many_jobs_share_a_few_workers() {
        let pool = Arc::new(Pool::new(3));
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        let rt = rt();
        let total: usize = rt.block_on(async {
            let mut tasks = Vec::new();
            for i in 0..200usize {
                let (pool, running, most) = (pool.clone(), running.clone(), most.clone());
                tasks.push(tokio::spawn(async move {
                    let load = Arc::new(Load::default());
                    pool.run(&load, move || {
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(1));
                        running.fetch_sub(1, Ordering::SeqCst);
                        i
                    })
                    .await
                    .unwrap()
                }));
            }
            let mut sum = 0;
            for t in tasks {
                sum += t.await.unwrap();
            }
            sum
        });
        assert_eq!(total, (0..200).sum::<usize>());
        assert!(most.load(Ordering::SeqCst) <= 3);
        assert!(pool.started() <= 3);
    }

    #[test]
    fn a_panicking_job_is_an_error_and_the_worker_goes_on() {
        let pool = Pool::new(1);
        let load = Arc::new(Load::default());
        let rt = rt();
        let err = rt
            .block_on(pool.run(&load, || -> u8 { panic!("boom") }))
            .unwrap_err();
        assert!(err.contains("boom"), "{err}");
        assert_eq!(rt.block_on(pool.run(&load, || 7)).unwrap(), 7);
    }

    #[test]
    fn heavy_sessions_leave_a_worker_for_light_ones() {
        let pool = Arc::new(Pool::new(2));
        let rt = rt();
        let heavy = Arc::new(Load::default());
        heavy.add(5_000_000);
        let running = Arc::new(AtomicUsize::new(0));
        let most = Arc::new(AtomicUsize::new(0));
        rt.block_on(async {
            let mut tasks = Vec::new();
            for _ in 0..6 {
                let (pool, load, running, most) =
                    (pool.clone(), heavy.clone(), running.clone(), most.clone());
                tasks.push(tokio::spawn(async move {
                    pool.run(&load, move || {
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(std::time::Duration::from_millis(5));
                        running.fetch_sub(1, Ordering::SeqCst);
                    })
                    .await
                }));
            }
            // A light call is served while heavy ones wait.
            let light = Arc::new(Load::default());
            assert_eq!(pool.run(&light, || 7).await.unwrap(), 7);
            for t in tasks {
                t.await.unwrap().unwrap();
            }
        });
        // Heavy jobs never ran two at once on the two workers (the load
        // stays heavy: each adds 5 ms to half of 5 s or more).
        assert_eq!(most.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn light_sessions_go_before_heavy_ones() {
        let pool = Arc::new(Pool::new(1));
        let rt = rt();
        let heavy = Arc::new(Load::default());
        heavy.add(5_000_000);
        let light = Arc::new(Load::default());
        let order = Arc::new(Mutex::new(Vec::new()));
        rt.block_on(async {
            // Occupy the one worker until both jobs wait.
            let (go, wait) = std::sync::mpsc::channel::<()>();
            let blocker = {
                let pool = pool.clone();
                let l = Arc::new(Load::default());
                tokio::spawn(async move { pool.run(&l, move || wait.recv().ok()).await })
            };
            // Until the worker has taken it: a blocker still queued would
            // count as one of the jobs waited for below.
            while pool.started() == 0 || pool.waiting() > 0 {
                tokio::task::yield_now().await;
            }
            let mut tasks = Vec::new();
            for (name, load) in [("heavy", heavy.clone()), ("light", light.clone())] {
                let (job_pool, order) = (pool.clone(), order.clone());
                tasks.push(tokio::spawn(async move {
                    job_pool
                        .run(&load, move || order.lock().unwrap().push(name))
                        .await
                }));
                // Queued before the next (whatever the machine's speed).
                let queued = tasks.len();
                while pool.waiting() < queued {
                    tokio::task::yield_now().await;
                }
            }
            go.send(()).unwrap();
            blocker.await.unwrap().unwrap();
            for t in tasks {
                t.await.unwrap().unwrap();
            }
        });
        assert_eq!(*order.lock().unwrap(), ["light", "heavy"]);
    }
}
