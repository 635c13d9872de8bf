//! Bad input gets an error, never a panic: the loader and the importer over many mutations of
//! real files (a fixed pseudo-random sequence, so a failure reproduces).

use mcplab_evals::import::import;
use mcplab_evals::suite::parse_suite;

/// A small linear congruential generator: deterministic, no dependency.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % below.max(1)
    }
}

const JUNK: [&str; 12] = [
    "{", "}", "[", "]", ":", "- ", "$anyOf", "\"", "'", "\n  ", "&a", "<string>",
];

fn mutate(text: &str, rng: &mut Lcg) -> String {
    let mut bytes: Vec<char> = text.chars().collect();
    for _ in 0..1 + rng.next(4) {
        let at = rng.next(bytes.len());
        match rng.next(3) {
            0 => {
                let end = (at + rng.next(40)).min(bytes.len());
                bytes.drain(at..end);
            }
            1 => bytes
                .splice(at..at, JUNK[rng.next(JUNK.len())].chars())
                .for_each(drop),
            _ => {
                let other = rng.next(bytes.len());
                bytes.swap(at, other);
            }
        }
    }
    bytes.into_iter().collect()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

#[test]
fn mutated_suites_get_errors_not_panics() {
    let demo = read("../../examples/evals/demo.yaml");
    let mut rng = Lcg(7);
    let mut rejected = 0;
    for _ in 0..200 {
        let text = mutate(&demo, &mut rng);
        if let Err(errors) = parse_suite(&text) {
            rejected += 1;
            assert!(!errors.0.is_empty());
            assert!(errors.0.iter().all(|e| !e.message.is_empty()));
        }
    }
    assert!(
        rejected > 50,
        "the mutations should break most files ({rejected})"
    );
}

#[test]
fn mutated_imports_get_errors_not_panics() {
    let mut rng = Lcg(11);
    for file in [
        "tests/fixtures/mcpjam-suite-v1.yaml",
        "tests/fixtures/tests.json",
    ] {
        let source = read(file);
        for _ in 0..100 {
            let _ = import(&mutate(&source, &mut rng), "mutated");
        }
    }
}
