//! Unit tests of the per-reader queues: budgets, gaps told where they are, wake-ups, closing.

use super::*;

fn log(bytes: usize) -> ServerEvent {
    ServerEvent::Log {
        server: "s".into(),
        level: "info".into(),
        logger: None,
        data: "y".repeat(bytes).into(),
    }
}

fn numbered(n: usize) -> ServerEvent {
    ServerEvent::Log {
        server: "s".into(),
        level: "info".into(),
        logger: None,
        data: format!("{n:0>9}{}", "y".repeat(10_000)).into(),
    }
}

fn number(event: &ServerEvent) -> usize {
    let ServerEvent::Log { data, .. } = event else {
        panic!("a log: {event:?}");
    };
    data.as_str().unwrap()[..9].parse().unwrap()
}

#[test]
fn a_stalled_reader_costs_only_itself_events() {
    let hub = EventHub::with_limits(1024, 100_000);
    let mut reading = hub.subscribe();
    let mut stalled = hub.subscribe();
    let mut missed = 0;
    for n in 0..100 {
        missed += hub.offer(numbered(n));
        assert_eq!(number(&reading.try_recv().expect("each one")), n);
        assert!(
            stalled.queued_bytes() <= 100_000,
            "{}",
            stalled.queued_bytes()
        );
    }
    assert_eq!(missed, 91, "nine of ~10,070 bytes fit in 100,000");
    for n in 0..9 {
        assert_eq!(number(&stalled.try_recv().unwrap()), n);
    }
    assert_eq!(stalled.try_recv(), Err(TryRecvError::Lagged(91)));
    assert_eq!(stalled.try_recv(), Err(TryRecvError::Empty));
    assert_eq!(hub.offer(numbered(100)), 0, "room again for both");
    assert_eq!(number(&stalled.try_recv().unwrap()), 100);
    assert_eq!(number(&reading.try_recv().unwrap()), 100);
}

#[test]
fn what_must_pass_drops_the_oldest_of_a_full_queue_and_says_where() {
    let hub = EventHub::with_limits(1024, 100_000);
    let mut rx = hub.subscribe();
    let size = json_size(&numbered(0));
    for n in 0..9 {
        assert_eq!(hub.offer(numbered(n)), 0);
    }
    assert_eq!(hub.offer(numbered(9)), 1, "full");
    hub.send(numbered(10));
    assert_eq!(rx.queued_bytes(), 9 * size, "one out, one in");
    // The oldest went (a gap of one at the front), then 1..8, the refused 9, then 10.
    assert_eq!(rx.try_recv(), Err(TryRecvError::Lagged(1)));
    for n in 1..9 {
        assert_eq!(number(&rx.try_recv().unwrap()), n);
    }
    assert_eq!(rx.try_recv(), Err(TryRecvError::Lagged(1)));
    assert_eq!(number(&rx.try_recv().unwrap()), 10);
    assert_eq!(rx.try_recv(), Err(TryRecvError::Empty));
    assert_eq!(rx.queued_bytes(), 0);
}

#[test]
fn each_queue_is_bounded_in_events_too() {
    let hub = EventHub::with_limits(16, 1_000_000);
    let mut rx = hub.subscribe();
    for _ in 0..40 {
        hub.send(log(100));
    }
    assert_eq!(rx.queued_bytes(), 16 * json_size(&log(100)));
    assert_eq!(rx.try_recv(), Err(TryRecvError::Lagged(24)));
    assert_eq!(hub.offer(log(100)), 1, "still full");
    assert!(rx.try_recv().is_ok());
    assert_eq!(hub.offer(log(100)), 0, "one taken: room for one");
    assert_eq!(hub.offer(log(100)), 1);
}

#[test]
fn nothing_is_held_without_readers_and_a_dropped_reader_frees_its_queue() {
    let hub = EventHub::with_limits(16, 1_000_000);
    hub.send(log(100));
    assert_eq!(hub.queued_bytes(), 0, "no reader");
    let mut fast = hub.subscribe();
    let slow = hub.subscribe();
    hub.send(log(100));
    hub.send(log(100));
    while fast.try_recv().is_ok() {}
    assert_eq!(hub.queued_bytes(), 2 * json_size(&log(100)));
    drop(slow);
    assert_eq!(hub.queued_bytes(), 0, "let go at once");
    hub.send(log(100));
    assert_eq!(hub.inner.readers.lock().len(), 1, "forgotten");
}

#[test]
fn a_single_event_over_the_budget_passes_an_empty_queue() {
    let hub = EventHub::with_limits(16, 1_000);
    let mut rx = hub.subscribe();
    assert_eq!(hub.offer(log(5_000)), 0);
    assert_eq!(hub.offer(log(10)), 1);
    assert!(rx.try_recv().is_ok());
}

#[tokio::test]
async fn recv_wakes_on_an_event_and_ends_after_the_hub_is_gone() {
    let hub = EventHub::default();
    let mut rx = hub.subscribe();
    let waiting = tokio::spawn(async move {
        let first = rx.recv().await;
        let second = rx.recv().await;
        let third = rx.recv().await;
        (first, second, third)
    });
    tokio::task::yield_now().await;
    hub.send(log(1));
    hub.send(log(2));
    drop(hub);
    let (first, second, third) = tokio::time::timeout(std::time::Duration::from_secs(10), waiting)
        .await
        .expect("woken")
        .unwrap();
    assert_eq!(first.unwrap(), log(1));
    assert_eq!(second.unwrap(), log(2));
    assert_eq!(third, Err(RecvError::Closed));
}
