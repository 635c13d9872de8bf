//! Converts an MCPJam suite file or tests.json and prints the mcplab suite with its notes:
//! `cargo run -p mcplab-evals --example import_suite FILE`.
fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: import_suite FILE");
        std::process::exit(2);
    };
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let stem = std::path::Path::new(&path)
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("imported");
    match mcplab_evals::import::import(&text, stem) {
        Ok(i) => print!("{}", mcplab_evals::import::to_yaml(&i.suite, &i.notes)),
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    }
}
