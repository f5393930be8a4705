fn main() -> std::process::ExitCode {
    playtune::cli::main()
}
