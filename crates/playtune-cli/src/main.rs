fn main() -> std::process::ExitCode {
    playtune_cli::main()
}
