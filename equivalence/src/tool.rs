//! Errors of the external programs the lab runs: `objdump` for
//! [`divscan::scan`](crate::divscan::scan), `.ci/plant-build.sh` for
//! [`prove::selftest`](crate::prove::selftest).

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
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Spawn { source, .. } | Error::Io { source, .. } => Some(source),
            Error::Failed { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let status = std::process::Command::new("sh")
            .args(["-c", "exit 3"])
            .status()
            .expect("sh runs");
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
}
