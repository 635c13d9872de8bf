//! Loads a suite file and prints it (or every error): `cargo run -p mcplab-evals --example
//! check_suite FILE`.
fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: check_suite FILE");
        std::process::exit(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    match mcplab_evals::suite::parse_suite(&text) {
        Ok(suite) => println!("{} cases", suite.cases.len()),
        Err(errors) => {
            eprint!("{path}: {errors}");
            std::process::exit(2);
        }
    }
}
