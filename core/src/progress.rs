//! Progress and cancellation of long operations, for a surface to draw a bar and to stop
//! one (Ctrl-C at the CLI, an `AbortSignal` in Node, `cc_search_cancel` in C, MCP's
//! `notifications/cancelled`).
//!
//! A caller runs an operation inside a [`Watch`]: a progress sink, [`Cancel`] tokens that
//! anyone may set from any thread (or a signal handler: it is one atomic store), and a
//! poll asked on the calling thread every [`POLL_EVERY`] (Python's pending signals). The
//! operation calls [`report`] as it goes and [`checkpoint`] between units of work, both
//! on the calling thread, so the sink and the poll need no locking and may call back into
//! an interpreter that holds the caller's thread. Threads an operation starts take a
//! [`Stopper`] with them. A checkpoint of a cancelled operation returns
//! [`Error::Cancelled`]: the operation stops there, what it committed stays committed
//! (every index run writes in transactions, and a later run picks up the rest), and its
//! locks are released as it unwinds.
//!
//! Without a watch, [`report`] does nothing and [`checkpoint`] always passes. Operations
//! that report: `files.refresh` (stage `walk`), `code.index_repository` (`parse`),
//! `sessions.index` (`parse`, then `embed`), `docs.index` / `notes.index` (`parse`,
//! then `embed`); every operation that runs long checks for cancellation.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::error::{Error, Result};

/// One step of an operation's progress: `done` of `total` units of `stage`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Progress<'a> {
    /// What is being done (`walk`: files listed; `parse`: files read and parsed;
    /// `embed`: chunks embedded).
    pub stage: &'a str,
    /// Units done so far in this stage.
    pub done: u64,
    /// Units this stage has in all (`done == total` ends it).
    pub total: u64,
}

/// How often, at most, a [`Watch`]'s poll is asked.
pub const POLL_EVERY: Duration = Duration::from_millis(20);

/// A request to stop, shared by whoever may make it. Setting it is one atomic store, safe
/// from any thread and from a signal handler; an operation watched with it stops at its
/// next [`checkpoint`].
#[derive(Debug, Clone, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A token not yet set.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Ask every operation watched with this token to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether [`Cancel::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// A generation counter whose every increment cancels what began before it: an engine's
/// "stop everything running on me" ([`crate::Engine::cancel_running`]), safe from a
/// signal handler because it is one atomic add.
#[derive(Debug, Clone, Default)]
pub struct Generation(Arc<AtomicU64>);

impl Generation {
    /// Cancel every operation watched since before now.
    pub fn advance(&self) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }

    fn now(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// What may stop an operation, without the poll: cheap to check from any thread.
#[derive(Debug, Clone, Default)]
pub struct Stopper {
    tokens: Vec<Cancel>,
    generations: Vec<(Generation, u64)>,
}

impl Stopper {
    /// Whether the operation should stop.
    pub fn stopped(&self) -> bool {
        self.tokens.iter().any(Cancel::is_cancelled)
            || self.generations.iter().any(|(g, start)| g.now() != *start)
    }

    /// [`Error::Cancelled`] when it should stop.
    pub fn checkpoint(&self) -> Result<()> {
        if self.stopped() {
            Err(Error::Cancelled)
        } else {
            Ok(())
        }
    }
}

type Sink = Rc<dyn Fn(&Progress<'_>)>;
type Poll = Rc<dyn Fn() -> bool>;

/// How the operations run on this thread are watched: built with [`Watch::new`] and its
/// setters, then [`Watch::run`]. Watches nest: an inner one keeps the outer one's tokens,
/// and its sink and poll when it sets none of its own.
#[derive(Clone, Default)]
pub struct Watch {
    sink: Option<Sink>,
    poll: Option<Poll>,
    stopper: Stopper,
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch")
            .field("sink", &self.sink.is_some())
            .field("poll", &self.poll.is_some())
            .field("stopper", &self.stopper)
            .finish()
    }
}

struct Current {
    watch: Watch,
    /// Set when the poll asked to stop, so the stop sticks and reaches [`Stopper`]s.
    polled_stop: Cancel,
    last_poll: Cell<Option<Instant>>,
}

thread_local! {
    static CURRENT: RefCell<Option<Rc<Current>>> = const { RefCell::new(None) };
}

impl Watch {
    /// A watch that does nothing yet.
    pub fn new() -> Watch {
        Watch::default()
    }

    /// Send progress to `sink`.
    pub fn progress(mut self, sink: impl Fn(&Progress<'_>) + 'static) -> Watch {
        self.sink = Some(Rc::new(sink));
        self
    }

    /// Stop when `token` is set.
    pub fn cancel(mut self, token: &Cancel) -> Watch {
        self.stopper.tokens.push(token.clone());
        self
    }

    /// Stop when `generation` advances past where it is now.
    pub fn generation(mut self, generation: &Generation) -> Watch {
        let start = generation.now();
        self.stopper.generations.push((generation.clone(), start));
        self
    }

    /// Ask `poll` on the calling thread, at most every [`POLL_EVERY`], whether to stop
    /// (Python's check for a pending Ctrl-C).
    pub fn poll(mut self, poll: impl Fn() -> bool + 'static) -> Watch {
        self.poll = Some(Rc::new(poll));
        self
    }

    /// Run `f` watched by this and the watch around it, if any. The outer watch is back
    /// once `f` returns (or unwinds).
    pub fn run<R>(mut self, f: impl FnOnce() -> R) -> R {
        struct Restore(Option<Rc<Current>>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let previous = self.0.take();
                CURRENT.with(|slot| *slot.borrow_mut() = previous);
            }
        }
        let outer = CURRENT.with(|slot| slot.borrow().clone());
        let polled_stop = Cancel::new();
        if let Some(outer) = &outer {
            self.sink = self.sink.or_else(|| outer.watch.sink.clone());
            self.poll = self.poll.or_else(|| outer.watch.poll.clone());
            let inherited = &outer.watch.stopper;
            self.stopper.tokens.extend(inherited.tokens.iter().cloned());
            self.stopper.tokens.push(outer.polled_stop.clone());
            self.stopper
                .generations
                .extend(inherited.generations.iter().cloned());
        }
        self.stopper.tokens.push(polled_stop.clone());
        let current = Rc::new(Current {
            watch: self,
            polled_stop,
            last_poll: Cell::new(None),
        });
        let previous = CURRENT.with(|slot| slot.borrow_mut().replace(current));
        let _restore = Restore(previous);
        f()
    }
}

/// Run `f` with `sink` receiving the progress reported on this thread meanwhile
/// ([`Watch::progress`] and [`Watch::run`]).
pub fn watch<R>(sink: impl Fn(&Progress<'_>) + 'static, f: impl FnOnce() -> R) -> R {
    Watch::new().progress(sink).run(f)
}

/// Report progress to this thread's sink, if any, then [`checkpoint`].
pub fn report(stage: &str, done: usize, total: usize) -> Result<()> {
    // The watch is taken out of the cell before the sink runs, so a sink that itself
    // runs an operation (which reports) does not find the cell borrowed.
    let Some(current) = CURRENT.with(|slot| slot.borrow().clone()) else {
        return Ok(());
    };
    if let Some(sink) = &current.watch.sink {
        sink(&Progress {
            stage,
            done: done as u64,
            total: total as u64,
        });
    }
    check(&current)
}

/// [`Error::Cancelled`] when the operation running on this thread was asked to stop: a
/// token set, the engine's generation advanced, or the poll said so. Cheap: call it
/// between units of work (a file, a batch).
pub fn checkpoint() -> Result<()> {
    match CURRENT.with(|slot| slot.borrow().clone()) {
        Some(current) => check(&current),
        None => Ok(()),
    }
}

fn check(current: &Current) -> Result<()> {
    if let Some(poll) = &current.watch.poll {
        let now = Instant::now();
        let due = current
            .last_poll
            .get()
            .is_none_or(|last| now.duration_since(last) >= POLL_EVERY);
        if due {
            current.last_poll.set(Some(now));
            if poll() {
                current.polled_stop.cancel();
            }
        }
    }
    current.watch.stopper.checkpoint()
}

/// Run `f` on a thread of its own while this one keeps asking the poll (a pending
/// Ctrl-C) and calls `tick` (to report progress) every [`POLL_EVERY`] until `f` is done,
/// and return what `f` returned. `f` sees a stop through a [`Stopper`] taken before
/// ([`stopper`]): the poll's decision reaches it there. For work that blocks its thread
/// until done, such as walks; one that ends within [`POLL_EVERY`] is not ticked at all.
pub fn run_polling<R: Send>(f: impl FnOnce() -> R + Send, mut tick: impl FnMut()) -> Result<R> {
    std::thread::scope(|scope| {
        let (done, finished) = std::sync::mpsc::channel::<()>();
        let worker = scope.spawn(move || {
            let result = f();
            drop(done);
            result
        });
        while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
            finished.recv_timeout(POLL_EVERY)
        {
            // A stop is seen by `f` through its stopper; this only keeps asking.
            let _ = checkpoint();
            tick();
        }
        worker
            .join()
            .map_err(|_| Error::Internal("a worker thread panicked".into()))
    })
}

/// What stops the operation running on this thread, for the threads it starts to check
/// ([`Stopper::checkpoint`]); they cannot ask the poll, but see what it decided.
pub fn stopper() -> Stopper {
    CURRENT
        .with(|slot| slot.borrow().clone())
        .map(|current| current.watch.stopper.clone())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    #[test]
    fn reports_reach_the_sink_of_the_calling_thread_only_while_watched() {
        let seen = Rc::new(RefCell::new(Vec::new()));
        report("before", 0, 1).unwrap();
        let log = Rc::clone(&seen);
        watch(
            move |p| {
                log.borrow_mut()
                    .push((p.stage.to_string(), p.done, p.total))
            },
            || {
                report("parse", 1, 2).unwrap();
                std::thread::spawn(|| report("elsewhere", 1, 1).unwrap())
                    .join()
                    .unwrap();
                report("parse", 2, 2).unwrap();
            },
        );
        report("after", 1, 1).unwrap();
        assert_eq!(
            *seen.borrow(),
            [("parse".to_string(), 1, 2), ("parse".to_string(), 2, 2)]
        );
    }

    #[test]
    fn nested_watches_restore_the_outer_sink_even_after_a_panic() {
        let outer = Rc::new(RefCell::new(0));
        let count = Rc::clone(&outer);
        watch(
            move |_| *count.borrow_mut() += 1,
            || {
                let unwound = std::panic::catch_unwind(|| {
                    watch(|_| {}, || panic!("inner"));
                });
                assert!(unwound.is_err());
                report("embed", 1, 1).unwrap();
            },
        );
        assert_eq!(*outer.borrow(), 1);
    }

    #[test]
    fn a_token_set_from_another_thread_stops_the_next_checkpoint_and_its_workers() {
        let token = Cancel::new();
        Watch::new().cancel(&token).run(|| {
            assert!(checkpoint().is_ok());
            let worker = stopper();
            let setter = token.clone();
            std::thread::spawn(move || setter.cancel()).join().unwrap();
            assert!(matches!(checkpoint(), Err(Error::Cancelled)));
            assert!(matches!(report("walk", 1, 2), Err(Error::Cancelled)));
            assert!(std::thread::spawn(move || worker.stopped()).join().unwrap());
        });
        // Outside the watch nothing is cancelled.
        assert!(checkpoint().is_ok());
    }

    #[test]
    fn a_generation_cancels_what_began_before_it_advanced_not_what_began_after() {
        let generation = Generation::default();
        Watch::new().generation(&generation).run(|| {
            generation.advance();
            assert!(checkpoint().is_err());
        });
        Watch::new().generation(&generation).run(|| {
            assert!(checkpoint().is_ok());
        });
    }

    #[test]
    fn the_poll_is_asked_on_the_calling_thread_at_most_every_interval_and_its_stop_sticks() {
        let asked = Rc::new(Cell::new(0));
        let count = Rc::clone(&asked);
        Watch::new()
            .poll(move || {
                count.set(count.get() + 1);
                count.get() >= 2
            })
            .run(|| {
                assert!(checkpoint().is_ok());
                // Asked again only once the interval has passed.
                assert!(checkpoint().is_ok());
                assert_eq!(asked.get(), 1);
                std::thread::sleep(POLL_EVERY);
                let worker = stopper();
                assert!(checkpoint().is_err());
                assert!(worker.stopped(), "a worker sees what the poll decided");
                assert!(checkpoint().is_err(), "the stop sticks");
                // An inner watch (an operation run by an operation) is stopped too.
                Watch::new().run(|| assert!(checkpoint().is_err()));
            });
    }
}
