//! The `playtune` command (see the crate `playtune-cli`).

fn main() -> std::process::ExitCode {
    playtune_cli::main()
}
