//! A resource with a fixed number of units and a FIFO queue of waiters, for
//! drives, robot arms or any other congestion point.

use std::collections::VecDeque;

/// `capacity` identical units; requests that find none free wait in FIFO order.
///
/// The resource does not schedule anything itself: `acquire` says whether the
/// waiter got a unit now, and `release` hands the freed unit to the next
/// waiter and returns it, so the model can schedule that waiter's next event.
#[derive(Clone, Debug)]
pub struct Resource<W> {
    capacity: usize,
    in_use: usize,
    waiting: VecDeque<W>,
}

impl<W> Resource<W> {
    /// A resource with `capacity` units, all free.
    pub fn new(capacity: usize) -> Self {
        Resource {
            capacity,
            in_use: 0,
            waiting: VecDeque::new(),
        }
    }

    /// Asks for a unit for `waiter`. Returns `Some(waiter)` if it got one now;
    /// otherwise the waiter is queued and `None` is returned.
    pub fn acquire(&mut self, waiter: W) -> Option<W> {
        if self.in_use < self.capacity {
            self.in_use += 1;
            Some(waiter)
        } else {
            self.waiting.push_back(waiter);
            None
        }
    }

    /// Frees one unit. If someone is waiting, the unit goes straight to the
    /// first waiter, who is returned; otherwise the unit becomes free.
    pub fn release(&mut self) -> Option<W> {
        assert!(self.in_use > 0, "release of a resource with no unit in use");
        match self.waiting.pop_front() {
            Some(w) => Some(w),
            None => {
                self.in_use -= 1;
                None
            }
        }
    }

    /// Number of units.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// Number of units currently held.
    pub fn in_use(&self) -> usize {
        self.in_use
    }

    /// Number of waiters queued.
    pub fn queued(&self) -> usize {
        self.waiting.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grants_up_to_capacity_then_queues_fifo() {
        let mut r = Resource::new(2);
        assert_eq!(r.acquire(1), Some(1));
        assert_eq!(r.acquire(2), Some(2));
        assert_eq!(r.acquire(3), None);
        assert_eq!(r.acquire(4), None);
        assert_eq!(r.queued(), 2);
        assert_eq!(r.release(), Some(3));
        assert_eq!(r.in_use(), 2);
        assert_eq!(r.release(), Some(4));
        assert_eq!(r.release(), None);
        assert_eq!(r.in_use(), 1);
        assert_eq!(r.release(), None);
        assert_eq!(r.in_use(), 0);
    }

    #[test]
    #[should_panic(expected = "no unit in use")]
    fn release_without_acquire_panics() {
        Resource::<u8>::new(1).release();
    }
}
