//! Answers being waited for, keyed by id: a registry of oneshot channels with what was asked
//! beside each. A waiter's wait ends on the answer, on its timeout, on an optional cancel token,
//! or when its entry is withdrawn; however it ends (the waiter dropped included), its entry is
//! gone, so an answer that comes later finds nothing. The human-request broker, tool-call
//! approvals and the web server's pending OAuth sign-ins are built on it; what a request means,
//! its limits, events and error texts are theirs.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Arc;
use std::time::Duration;

use parking_lot::Mutex;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

/// A waiting request, its answer channel and the registration it belongs to (a waiter removes
/// its key only while the key is still its own, not a later registration's under the same key).
struct Entry<R, A> {
    request: R,
    tx: oneshot::Sender<A>,
    registration: u64,
}

struct Entries<K, R, A> {
    map: HashMap<K, Entry<R, A>>,
    registrations: u64,
}

type Shared<K, R, A> = Arc<Mutex<Entries<K, R, A>>>;

/// The waiting requests `R`, each answered once with an `A`.
pub struct Pending<K, R, A> {
    entries: Shared<K, R, A>,
}

impl<K, R, A> Default for Pending<K, R, A> {
    fn default() -> Self {
        let entries = Entries {
            map: HashMap::new(),
            registrations: 0,
        };
        Self {
            entries: Arc::new(Mutex::new(entries)),
        }
    }
}

/// How a wait ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ended<A> {
    Answered(A),
    /// The entry was removed without an answer (`withdraw`, or replaced by a later `add`).
    Withdrawn,
    TimedOut,
    /// The cancel token given to [`Waiter::wait_or_cancel`] fired.
    Cancelled,
}

impl<K: Eq + Hash + Clone, R, A> Pending<K, R, A> {
    /// Registers `request` under `key` (replacing what waited there) and returns its waiter.
    pub fn add(&self, key: K, request: R) -> Waiter<K, R, A> {
        match self.try_add(key, request, |_| Ok::<(), std::convert::Infallible>(())) {
            Ok(waiter) => waiter,
            Err(never) => match never {},
        }
    }

    /// Like [`add`](Self::add), but `admit` first sees the requests already waiting (under the
    /// same lock, so a limit it checks holds) and may refuse.
    pub fn try_add<E>(
        &self,
        key: K,
        request: R,
        admit: impl FnOnce(&mut dyn Iterator<Item = &R>) -> Result<(), E>,
    ) -> Result<Waiter<K, R, A>, E> {
        let (tx, rx) = oneshot::channel();
        let mut entries = self.entries.lock();
        admit(&mut entries.map.values().map(|e| &e.request))?;
        entries.registrations += 1;
        let registration = entries.registrations;
        let entry = Entry {
            request,
            tx,
            registration,
        };
        entries.map.insert(key.clone(), entry);
        Ok(Waiter {
            key,
            rx,
            registration,
            entries: self.entries.clone(),
        })
    }

    /// Hands `answer` to the waiter on `key`: what it asked, or `None` when nothing waits there
    /// (never registered, already answered, or its wait ended).
    pub fn answer(&self, key: &K, answer: A) -> Option<R> {
        // Sent under the lock: a waiter being dropped cannot slip between removal and send.
        let mut entries = self.entries.lock();
        let entry = entries.map.remove(key)?;
        entry.tx.send(answer).ok().map(|()| entry.request)
    }

    /// Whether something waits on `key`.
    pub fn contains(&self, key: &K) -> bool {
        self.entries.lock().map.contains_key(key)
    }

    /// Removes every request `which` picks; their waiters end [`Ended::Withdrawn`].
    pub fn withdraw(&self, mut which: impl FnMut(&R) -> bool) {
        self.entries.lock().map.retain(|_, e| !which(&e.request));
    }

    /// The first `f(request)` that is `Some`, in no particular order.
    pub fn find_map<T>(&self, f: impl FnMut(&R) -> Option<T>) -> Option<T> {
        let entries = self.entries.lock();
        entries.map.values().map(|e| &e.request).find_map(f)
    }

    /// How many requests wait.
    pub fn len(&self) -> usize {
        self.entries.lock().map.len()
    }

    /// Whether none waits.
    pub fn is_empty(&self) -> bool {
        self.entries.lock().map.is_empty()
    }
}

impl<K: Eq + Hash + Clone, R: Clone, A> Pending<K, R, A> {
    /// The requests waiting, in no particular order.
    pub fn requests(&self) -> Vec<R> {
        let entries = self.entries.lock();
        entries.map.values().map(|e| e.request.clone()).collect()
    }
}

/// One registered request's side of the wait; dropping it forgets the request.
pub struct Waiter<K: Eq + Hash, R, A> {
    key: K,
    rx: oneshot::Receiver<A>,
    registration: u64,
    entries: Shared<K, R, A>,
}

impl<K: Eq + Hash, R, A> Waiter<K, R, A> {
    /// Waits up to `timeout` for the answer.
    pub async fn wait(self, timeout: Duration) -> Ended<A> {
        self.wait_until(timeout, None).await
    }

    /// Waits up to `timeout` for the answer, or until `cancel` fires.
    pub async fn wait_or_cancel(self, timeout: Duration, cancel: &CancellationToken) -> Ended<A> {
        self.wait_until(timeout, Some(cancel)).await
    }

    async fn wait_until(
        mut self,
        timeout: Duration,
        cancel: Option<&CancellationToken>,
    ) -> Ended<A> {
        let cancelled = async {
            match cancel {
                Some(token) => token.cancelled().await,
                None => std::future::pending().await,
            }
        };
        // An answer that is already there wins over a timeout or cancel that is also due.
        tokio::select! {
            biased;
            answer = &mut self.rx => match answer {
                Ok(a) => Ended::Answered(a),
                Err(_) => Ended::Withdrawn,
            },
            _ = tokio::time::sleep(timeout) => Ended::TimedOut,
            _ = cancelled => Ended::Cancelled,
        }
    }
}

impl<K: Eq + Hash, R, A> Drop for Waiter<K, R, A> {
    fn drop(&mut self) {
        let mut entries = self.entries.lock();
        if entries
            .map
            .get(&self.key)
            .is_some_and(|e| e.registration == self.registration)
        {
            entries.map.remove(&self.key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Registry = Pending<u32, &'static str, String>;

    #[tokio::test]
    async fn an_answer_reaches_its_waiter_once() {
        let pending = Registry::default();
        let waiter = pending.add(1, "question");
        assert!(pending.contains(&1));
        assert_eq!(pending.answer(&1, "yes".into()), Some("question"));
        assert_eq!(pending.answer(&1, "again".into()), None, "a second answer");
        assert_eq!(
            waiter.wait(Duration::from_secs(60)).await,
            Ended::Answered("yes".to_owned())
        );
        assert!(pending.is_empty());
    }

    #[tokio::test(start_paused = true)]
    async fn an_unanswered_wait_times_out_and_a_late_answer_finds_nothing() {
        let pending = Registry::default();
        let waiter = pending.add(1, "question");
        assert_eq!(waiter.wait(Duration::from_secs(1)).await, Ended::TimedOut);
        assert!(!pending.contains(&1));
        assert_eq!(pending.answer(&1, "late".into()), None);
    }

    #[tokio::test]
    async fn cancel_ends_the_wait() {
        let pending = Registry::default();
        let cancel = CancellationToken::new();
        let waiter = pending.add(1, "question");
        cancel.cancel();
        let ended = waiter
            .wait_or_cancel(Duration::from_secs(60), &cancel)
            .await;
        assert_eq!(ended, Ended::Cancelled);
        assert!(pending.is_empty());
    }

    #[tokio::test]
    async fn withdrawing_ends_the_wait() {
        let pending = Registry::default();
        let (a, b, c) = (
            pending.add(1, "a"),
            pending.add(2, "b"),
            pending.add(3, "c"),
        );
        pending.withdraw(|r| *r == "a" || *r == "b");
        assert_eq!(pending.requests(), vec!["c"]);
        let minute = Duration::from_secs(60);
        assert_eq!(a.wait(minute).await, Ended::Withdrawn);
        assert_eq!(b.wait(minute).await, Ended::Withdrawn);
        drop(c);
        assert!(pending.is_empty(), "a dropped waiter leaves nothing behind");
    }

    #[test]
    fn admit_sees_what_waits_and_may_refuse() {
        let pending = Registry::default();
        let at_most_two = |waiting: &mut dyn Iterator<Item = &&str>| match waiting.count() {
            n if n >= 2 => Err(n),
            _ => Ok(()),
        };
        let _a = pending.try_add(1, "a", at_most_two).unwrap();
        let _b = pending.try_add(2, "b", at_most_two).unwrap();
        assert_eq!(pending.try_add(3, "c", at_most_two).err(), Some(2));
        assert_eq!(pending.len(), 2);
        assert_eq!(pending.find_map(|r| (*r == "b").then_some(2)), Some(2));
    }

    #[tokio::test]
    async fn a_finished_waiter_leaves_a_later_registration_of_its_key_alone() {
        let pending = Registry::default();
        let first = pending.add(1, "first");
        pending.answer(&1, "done".into());
        let second = pending.add(1, "second");
        drop(first);
        assert_eq!(
            pending.requests(),
            vec!["second"],
            "the old waiter removed the new one"
        );
        assert_eq!(pending.answer(&1, "yes".into()), Some("second"));
        assert_eq!(
            second.wait(Duration::from_secs(60)).await,
            Ended::Answered("yes".to_owned())
        );
    }
}
