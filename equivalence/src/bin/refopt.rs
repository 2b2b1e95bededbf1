//! `refopt`: run the lab. See [`equivalence::cli`] for the commands.

fn main() -> std::process::ExitCode {
    equivalence::cli::main()
}
