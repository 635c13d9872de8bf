//! `mcplab check`: lints one server (see `mcplab_core::check`).

use crate::cli::{CheckArgs, Global};
use crate::failure::Failure;
use crate::settings::DataDir;

pub async fn run(_args: CheckArgs, _global: &Global, _data: &DataDir) -> Result<(), Failure> {
    Err(Failure::usage("mcplab check is not built yet"))
}
