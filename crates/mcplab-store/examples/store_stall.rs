//! Does a busy store hold up the async runtime? On a runtime like `mcplab serve`'s (two
//! workers), an "event stream" task ticks every 2 ms and hands each tick to a receiver through a
//! channel (the shape of the SSE path: a producer, a hub, a consumer); its latency is the time
//! from a tick's due time to its arrival. First idle, then while four async tasks write 64 KB
//! rows to a file-backed store as fast as SQLite commits them (`synchronous=FULL`, an fsync per
//! commit) — an eval run's iteration writes plus route handlers and chat turns saving theirs.
//!
//! Run: `cargo run --release -p mcplab-store --example store_stall` (BENCHMARKS.md, "Store
//! writes and the event stream"). Prints p50 / p99 / max latency per phase and the writes done.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use mcplab_store::Store;
use serde_json::json;

const PHASE: Duration = Duration::from_secs(4);
const TICK: Duration = Duration::from_millis(2);
const WRITERS: usize = 4;

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    rt.block_on(run());
}

async fn run() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = Arc::new(Store::open(&dir.path().join("bench.sqlite")).expect("the store opens"));
    let idle = stream_latency(PHASE).await;
    report("idle", &idle, 0);
    let stop = Arc::new(AtomicBool::new(false));
    let writes = Arc::new(AtomicU64::new(0));
    let writers: Vec<_> = (0..WRITERS)
        .map(|w| tokio::spawn(write_loop(store.clone(), w, stop.clone(), writes.clone())))
        .collect();
    let busy = stream_latency(PHASE).await;
    stop.store(true, Ordering::Relaxed);
    for w in writers {
        let _ = w.await;
    }
    report("while writing", &busy, writes.load(Ordering::Relaxed));
}

/// Writes 64 KB rows from async code until `stop`, each its own committed transaction.
async fn write_loop(store: Arc<Store>, w: usize, stop: Arc<AtomicBool>, writes: Arc<AtomicU64>) {
    let blob = json!({ "payload": "x".repeat(64 * 1024) });
    let mut i = 0u64;
    while !stop.load(Ordering::Relaxed) {
        store
            .set_setting(&format!("bench-{w}-{}", i % 16), &blob)
            .expect("the write succeeds");
        writes.fetch_add(1, Ordering::Relaxed);
        i += 1;
        tokio::task::yield_now().await;
    }
}

/// Latencies (due time → received) of the ticks sent during `phase`.
async fn stream_latency(phase: Duration) -> Vec<Duration> {
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Instant>();
    let producer = tokio::spawn(async move {
        let start = Instant::now();
        let mut due = start;
        while due - start < phase {
            due += TICK;
            tokio::time::sleep_until(due.into()).await;
            if tx.send(due).is_err() {
                break;
            }
        }
    });
    let mut latencies = Vec::new();
    while let Some(due) = rx.recv().await {
        latencies.push(due.elapsed());
    }
    let _ = producer.await;
    latencies
}

fn report(phase: &str, latencies: &[Duration], writes: u64) {
    let mut sorted = latencies.to_vec();
    sorted.sort();
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q) as usize];
    println!(
        "{phase:>14}: {} ticks, p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms, {writes} writes",
        sorted.len(),
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        sorted[sorted.len() - 1].as_secs_f64() * 1e3,
    );
}
