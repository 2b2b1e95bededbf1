//! `kyberslash`: the refopt tool with this crate's pair and obligation.
fn main() -> std::process::ExitCode {
    equivalence::cli::main_with(&kyberslash::EXTENSION)
}
