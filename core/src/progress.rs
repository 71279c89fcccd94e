//! Progress of long operations, for a surface to draw (the CLI's bar on stderr).
//!
//! A caller that wants progress runs the operation through
//! [`Engine::call_with_progress`](crate::Engine::call_with_progress) (or [`watch`]); the
//! operation calls [`report`] as it goes, always on the calling thread, so the sink needs
//! no locking and may call back into an interpreter that holds the caller's thread.
//! Without a sink, [`report`] does nothing. Operations that report: `sessions.index`
//! (stages `parse`, then `embed`) and `docs.index` / `notes.index` (`embed`).

use std::cell::RefCell;
use std::rc::Rc;

use serde::Serialize;

/// One step of an operation's progress: `done` of `total` units of `stage`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Progress<'a> {
    /// What is being done (`parse`: transcripts read and parsed; `embed`: chunks embedded).
    pub stage: &'a str,
    /// Units done so far in this stage.
    pub done: u64,
    /// Units this stage has in all (`done == total` ends it).
    pub total: u64,
}

type Sink = Rc<dyn Fn(&Progress<'_>)>;

thread_local! {
    static SINK: RefCell<Option<Sink>> = const { RefCell::new(None) };
}

/// Run `f` with `sink` receiving the progress reported on this thread meanwhile. Nests:
/// the previous sink is back once `f` returns (or unwinds).
pub fn watch<R>(sink: impl Fn(&Progress<'_>) + 'static, f: impl FnOnce() -> R) -> R {
    struct Restore(Option<Sink>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            SINK.with(|slot| *slot.borrow_mut() = previous);
        }
    }
    let previous = SINK.with(|slot| slot.borrow_mut().replace(Rc::new(sink)));
    let _restore = Restore(previous);
    f()
}

/// Report progress to this thread's sink, if any.
pub fn report(stage: &str, done: usize, total: usize) {
    // The sink is taken out of the cell before it runs, so a sink that itself runs an
    // operation (which reports) does not find the cell borrowed.
    let Some(sink) = SINK.with(|slot| slot.borrow().clone()) else {
        return;
    };
    sink(&Progress {
        stage,
        done: done as u64,
        total: total as u64,
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::RefCell;

    #[test]
    fn reports_reach_the_sink_of_the_calling_thread_only_while_watched() {
        let seen = Rc::new(RefCell::new(Vec::new()));
        report("before", 0, 1);
        let log = Rc::clone(&seen);
        watch(
            move |p| {
                log.borrow_mut()
                    .push((p.stage.to_string(), p.done, p.total))
            },
            || {
                report("parse", 1, 2);
                std::thread::spawn(|| report("elsewhere", 1, 1))
                    .join()
                    .unwrap();
                report("parse", 2, 2);
            },
        );
        report("after", 1, 1);
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
                report("embed", 1, 1);
            },
        );
        assert_eq!(*outer.borrow(), 1);
    }
}
