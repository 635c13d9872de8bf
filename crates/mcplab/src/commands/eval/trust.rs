//! Before `eval run` starts anything: the commands it will start and the servers it will
//! drive with approvals off, printed to stderr; on a terminal, asked once per list (the answer
//! remembered by the list's hash in the data directory); `--yes`, or stdin that is not a
//! terminal (CI), goes ahead with the list still printed.

use std::io::{BufRead, IsTerminal, Write};

use mcplab_evalrun::{Prepared, is_trusted, launch_list, launch_text, remember_trusted};
use mcplab_store::Store;

use crate::failure::Failure;

/// Says what the run will start and, on a terminal, asks — unless `yes` or agreed before.
pub fn confirm(prepared: &Prepared, store: &Store, yes: bool) -> Result<(), Failure> {
    let list = launch_list(prepared);
    if list.items.is_empty() {
        return Ok(());
    }
    eprint!("{}", launch_text(&list));
    let agreed = is_trusted(store, &list.hash).map_err(|e| Failure::usage(e.to_string()))?;
    let stdin = std::io::stdin();
    if agreed || yes || !stdin.is_terminal() {
        return Ok(());
    }
    eprint!("Start them? [y/N] ");
    let _ = std::io::stderr().flush();
    let mut answer = String::new();
    stdin
        .lock()
        .read_line(&mut answer)
        .map_err(|e| Failure::usage(format!("cannot read the answer: {e}")))?;
    if !matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
        return Err(Failure::usage(
            "nothing was started: read the suite's servers and checks, then run again (or pass \
             --yes)",
        ));
    }
    remember_trusted(store, &list.hash).map_err(|e| Failure::usage(e.to_string()))
}
