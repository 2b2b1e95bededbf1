//! Errors of the external programs the lab runs: `objdump` for
//! [`divscan::scan`](crate::divscan::scan), `.ci/plant-build.sh` for
//! [`prove::selftest`](crate::prove::selftest), the SMT solver for
//! [`prove::smt::Solver::run`](crate::prove::smt::Solver::run).

use std::fmt;
use std::io;
use std::process::ExitStatus;

/// Why an external program gave no usable output.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// It could not be started (not installed, or not executable).
    Spawn {
        /// The program and what it was run on, as shown.
        what: String,
        /// The operating system's error.
        source: io::Error,
    },
    /// Reading its output, or waiting for it, failed.
    Io {
        /// The program and what it was run on, as shown.
        what: String,
        /// The operating system's error.
        source: io::Error,
    },
    /// It ran and exited with a failure.
    Failed {
        /// The program and what it was run on, as shown.
        what: String,
        /// Its exit status.
        status: ExitStatus,
        /// Its standard error, trimmed.
        stderr: String,
    },
    /// It ran, but printed none of the answers expected of it.
    Unanswered {
        /// The program and what it was run on, as shown.
        what: String,
        /// Its exit status.
        status: ExitStatus,
        /// The first non-empty line of its standard output, trimmed (empty if none).
        output: String,
        /// Its standard error, trimmed.
        stderr: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Spawn { what, source } => write!(f, "cannot run {what}: {source}"),
            Error::Io { what, source } => write!(f, "{what}: {source}"),
            Error::Failed {
                what,
                status,
                stderr,
            } => write!(f, "{what} failed ({status}): {stderr}"),
            Error::Unanswered {
                what,
                status,
                output,
                stderr,
            } => write!(
                f,
                "{what} gave no answer ({status}): output {output:?}, stderr: {stderr}"
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Spawn { source, .. } | Error::Io { source, .. } => Some(source),
            Error::Failed { .. } | Error::Unanswered { .. } => None,
        }
    }
}

/// Writes an executable shell script named `name` holding `body` into a fresh
/// directory of the system's temporary directory, for tests that stand in for an
/// external program.
///
/// A child shell writes the file: a descriptor open for writing in this
/// multi-threaded test process could be inherited by a child another test forks at
/// that moment, and running the script would then fail with "text file busy".
#[cfg(test)]
pub(crate) fn script(name: &str, body: &str) -> std::path::PathBuf {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let dir = std::env::temp_dir().join(format!("refopt-tool-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temporary directory");
    let path = dir.join(name);
    let mut writer = Command::new("sh")
        .args(["-c", "cat > \"$1\" && chmod 755 \"$1\"", "sh"])
        .arg(&path)
        .stdin(Stdio::piped())
        .spawn()
        .expect("sh runs");
    writer
        .stdin
        .take()
        .expect("piped")
        .write_all(format!("#!/bin/sh\n{body}\n").as_bytes())
        .expect("script written");
    assert!(writer.wait().expect("sh ends").success(), "script written");
    path
}

/// Runs `f` on a thread and returns its result, or `None` if it has not finished
/// within `limit`: a test of a pipe that could block fails instead of hanging.
#[cfg(test)]
pub(crate) fn within<T: Send + 'static>(
    limit: std::time::Duration,
    f: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(limit).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The status of a process that exited with `code`.
    fn exited(code: i32) -> ExitStatus {
        std::os::unix::process::ExitStatusExt::from_raw(code << 8)
    }

    #[test]
    fn a_missing_program_is_a_spawn_error_with_its_cause() {
        let what = "refopt-no-such-program".to_owned();
        let source = std::process::Command::new(&what)
            .output()
            .expect_err("no such program");
        let e = Error::Spawn { what, source };
        assert!(
            e.to_string()
                .starts_with("cannot run refopt-no-such-program: ")
        );
        assert!(std::error::Error::source(&e).is_some());
    }

    #[test]
    fn a_failed_program_shows_its_status_and_stderr() {
        let status = exited(3);
        let e = Error::Failed {
            what: "objdump on x".to_owned(),
            status,
            stderr: "bad file".to_owned(),
        };
        assert_eq!(
            e.to_string(),
            "objdump on x failed (exit status: 3): bad file"
        );
        assert!(std::error::Error::source(&e).is_none());
    }

    #[test]
    fn a_program_without_an_answer_shows_what_it_printed() {
        let status = exited(1);
        let e = Error::Unanswered {
            what: "z3 on a query".to_owned(),
            status,
            output: "(error \"x\")".to_owned(),
            stderr: String::new(),
        };
        assert_eq!(
            e.to_string(),
            "z3 on a query gave no answer (exit status: 1): output \"(error \\\"x\\\")\", stderr: "
        );
        assert!(std::error::Error::source(&e).is_none());
    }
}
