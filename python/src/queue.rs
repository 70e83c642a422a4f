//! The queue between a listing's search thread and the Python thread that reads it.
//!
//! A bounded channel wakes the searcher each time the reader takes a solution from a
//! full queue, and the reader each time one arrives at an empty one: with solutions
//! found every microsecond, the two threads spent more time waking each other than
//! searching (sudoku_inkala_minus3's 360,544 solutions). Here the searcher, once the
//! queue is full, sleeps until the reader has taken half of it, and the reader takes
//! what is there without giving up the GIL.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Duration;

use pyo3::prelude::*;

/// How often a waiting reader looks at Python's signals.
const POLL: Duration = Duration::from_millis(50);

struct State<T> {
    items: VecDeque<T>,
    /// The searcher sleeps until the queue is down to half.
    writer_asleep: bool,
    /// The reader sleeps until something arrives.
    reader_asleep: bool,
    /// The searcher is done: nothing more will come.
    closed: bool,
    /// The reader is gone: the searcher should stop.
    dropped: bool,
}

/// A bounded queue of `cap` messages with one writer and one reader.
pub struct Queue<T> {
    cap: usize,
    state: Mutex<State<T>>,
    arrived: Condvar,
    room: Condvar,
}

impl<T: Send> Queue<T> {
    /// An empty queue of `cap` messages (at least 2).
    pub fn new(cap: usize) -> Queue<T> {
        Queue {
            cap: cap.max(2),
            state: Mutex::new(State {
                items: VecDeque::new(),
                writer_asleep: false,
                reader_asleep: false,
                closed: false,
                dropped: false,
            }),
            arrived: Condvar::new(),
            room: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, State<T>> {
        // A thread that panicked holding the lock left a queue still usable.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Adds `v`, sleeping while the queue is full; `false` when the reader is gone.
    pub fn send(&self, v: T) -> bool {
        let mut s = self.lock();
        while s.items.len() >= self.cap && !s.dropped {
            s.writer_asleep = true;
            s = self.room.wait(s).unwrap_or_else(|p| p.into_inner());
        }
        if s.dropped {
            return false;
        }
        s.items.push_back(v);
        if s.reader_asleep {
            s.reader_asleep = false;
            self.arrived.notify_one();
        }
        true
    }

    /// The writer is done.
    pub fn close(&self) {
        let mut s = self.lock();
        s.closed = true;
        self.arrived.notify_one();
    }

    /// The reader is gone: the writer's next `send` returns `false`, and what is
    /// queued is dropped.
    pub fn drop_reader(&self) {
        let mut s = self.lock();
        s.dropped = true;
        s.items.clear();
        self.room.notify_one();
    }

    /// The next message, or `None` once the writer closed the queue and it is empty.
    /// Waits without the GIL when the queue is empty; a signal handler that raises
    /// (Ctrl-C) raises `stop` and returns its exception.
    pub fn recv(&self, py: Python<'_>, stop: &AtomicBool) -> PyResult<Option<T>> {
        loop {
            if let Some(v) = self.take() {
                return Ok(v);
            }
            py.detach(|| {
                let mut s = self.lock();
                if s.items.is_empty() && !s.closed {
                    s.reader_asleep = true;
                    let _ = self.arrived.wait_timeout(s, POLL);
                }
            });
            if let Err(e) = py.check_signals() {
                stop.store(true, Ordering::Relaxed);
                return Err(e);
            }
        }
    }

    /// What is there: `Some(Some(v))`, `Some(None)` at the end, `None` when the queue
    /// is empty but open.
    fn take(&self) -> Option<Option<T>> {
        let mut s = self.lock();
        match s.items.pop_front() {
            Some(v) => {
                if s.writer_asleep && s.items.len() <= self.cap / 2 {
                    s.writer_asleep = false;
                    self.room.notify_one();
                }
                Some(Some(v))
            }
            None if s.closed => Some(None),
            None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_writer_stops_when_the_reader_is_gone() {
        let q = std::sync::Arc::new(Queue::new(4));
        let w = std::sync::Arc::clone(&q);
        let t = std::thread::spawn(move || (0..).take_while(|&k| w.send(k)).count());
        std::thread::sleep(Duration::from_millis(20));
        q.drop_reader();
        // It filled the queue (4) and then stopped, not blocked for ever.
        assert_eq!(t.join().unwrap(), 4);
    }

    #[test]
    fn every_message_arrives_in_order() {
        let q = std::sync::Arc::new(Queue::new(8));
        let w = std::sync::Arc::clone(&q);
        let t = std::thread::spawn(move || {
            for k in 0..10_000 {
                assert!(w.send(k));
            }
            w.close();
        });
        let mut got = Vec::new();
        loop {
            match q.take() {
                Some(Some(v)) => got.push(v),
                Some(None) => break,
                None => std::thread::yield_now(),
            }
        }
        t.join().unwrap();
        assert_eq!(got, (0..10_000).collect::<Vec<_>>());
    }
}
