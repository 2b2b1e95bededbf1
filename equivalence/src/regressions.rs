//! Regression cases: inputs that once made a pair fail, kept as hex lines in
//! `<pair name with / as __>.txt` files, replayed by `cargo test` and `refopt replay`.
//!
//! The committed set is `equivalence/regressions/` (the inputs with which the lab
//! caught the bug zoo, docs/bug-zoo.md). `refopt check` keeps new failing inputs in the
//! directory found at run time ([`default_dir`]); tests always pass a temporary one,
//! so a mismatch found under `cargo test` never writes into the checkout.

use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

/// The environment variable that names the regressions directory.
pub const DIR_ENV: &str = "REFOPT_REGRESSIONS";

/// The regressions directory for this run: `$REFOPT_REGRESSIONS`; else
/// `equivalence/regressions` of the refopt workspace that contains the current
/// directory; else `regressions` in the current directory.
pub fn default_dir() -> PathBuf {
    if let Some(d) = std::env::var_os(DIR_ENV) {
        return PathBuf::from(d);
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    for dir in cwd.ancestors() {
        let candidate = dir.join("equivalence/regressions");
        if candidate.is_dir() && dir.join("Cargo.toml").is_file() {
            return candidate;
        }
    }
    cwd.join("regressions")
}

/// The file that holds `pair`'s cases inside `dir`.
pub fn file_for(dir: &Path, pair: &str) -> PathBuf {
    dir.join(format!("{}.txt", pair.replace('/', "__")))
}

/// Appends `input` (hex) to `pair`'s file in `dir`, creating both if needed.
///
/// # Errors
/// Any I/O error creating the directory or writing the file.
pub fn keep(dir: &Path, pair: &str, input: &[u8]) -> io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let path = file_for(dir, pair);
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)?;
    writeln!(f, "{}", hex::encode(input))?;
    Ok(path)
}

/// Saved inputs with their 1-based line numbers.
pub type Cases = Vec<(usize, Vec<u8>)>;

/// One regression file: its path, the pair it is for, and its inputs.
pub type File = (PathBuf, String, Cases);

/// The saved cases of one file: the pair name (from the file name) and each input
/// with its 1-based line number. Blank lines and lines starting with `#` are skipped.
///
/// # Errors
/// An I/O error, or a line that is not hex (as [`io::ErrorKind::InvalidData`], naming
/// the line). The error does not name `path`, which the caller has: [`read_dir`]'s
/// errors add it.
pub fn read_file(path: &Path) -> io::Result<(String, Cases)> {
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "file name is not UTF-8"))?
        .replace("__", "/");
    let file = std::fs::File::open(path)?;
    let mut cases = Vec::new();
    for (i, line) in io::BufReader::new(file).lines().enumerate() {
        let line = line?;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let input = parse_hex(line).map_err(|e| {
            io::Error::new(io::ErrorKind::InvalidData, format!("line {}: {e}", i + 1))
        })?;
        cases.push((i + 1, input));
    }
    Ok((name, cases))
}

/// Every `*.txt` file of `dir`, sorted by name, read with [`read_file`]. Besides them
/// `dir` may hold a `README.md`, hidden files (an editor's) and the parser targets'
/// subdirectory (`parsers/`, read on its own), nothing else: a crash saved under
/// another name, or in a misspelt directory, would otherwise be skipped unseen.
///
/// # Errors
/// When `dir` cannot be listed, when it holds another file or directory
/// (`InvalidData`), or as [`read_file`] with the file's path added.
pub fn read_dir(dir: &Path) -> io::Result<Vec<File>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<io::Result<_>>()?;
    files.retain(|p| {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let known_dir = p.is_dir() && name == crate::fuzz::parsers::REGRESSIONS_SUBDIR;
        !(known_dir || name == "README.md" || name.starts_with('.'))
    });
    if let Some(other) = files
        .iter()
        .find(|p| p.extension().and_then(|e| e.to_str()) != Some("txt"))
    {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "{}: not a regression file (`<pair>.txt`) nor the `{}` directory; rename it or move it out",
                other.display(),
                crate::fuzz::parsers::REGRESSIONS_SUBDIR
            ),
        ));
    }
    files.sort();
    files
        .into_iter()
        .map(|p| match read_file(&p) {
            Ok((name, cases)) => Ok((p, name, cases)),
            Err(e) => Err(io::Error::new(e.kind(), format!("{}: {e}", p.display()))),
        })
        .collect()
}

/// Why a hex string was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum HexError {
    /// An odd number of hex digits: the last byte is incomplete.
    OddLength(usize),
    /// A character that is not a hex digit, at this (0-based) position.
    NotHex {
        /// Position of the character.
        position: usize,
        /// The character.
        found: char,
    },
}

impl std::fmt::Display for HexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HexError::OddLength(n) => write!(
                f,
                "odd number of hex digits ({n}): the last byte is incomplete"
            ),
            HexError::NotHex { position, found } => {
                write!(f, "{found:?} at position {position} is not a hex digit")
            }
        }
    }
}

impl std::error::Error for HexError {}

/// Decodes hex digits, ignoring ASCII whitespace anywhere.
///
/// # Errors
/// [`HexError`] naming what is wrong.
pub fn parse_hex(text: &str) -> Result<Vec<u8>, HexError> {
    let mut out = Vec::with_capacity(text.len() / 2);
    let mut digits = 0usize;
    let mut high = 0u8;
    for (position, c) in text.chars().enumerate() {
        if c.is_ascii_whitespace() {
            continue;
        }
        let v = c
            .to_digit(16)
            .ok_or(HexError::NotHex { position, found: c })? as u8;
        if digits & 1 == 0 {
            high = v;
        } else {
            out.push((high << 4) | v);
        }
        digits += 1;
    }
    if digits & 1 == 1 {
        return Err(HexError::OddLength(digits));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_errors_are_specific() {
        assert_eq!(parse_hex("0aFf"), Ok(vec![0x0a, 0xff]));
        assert_eq!(parse_hex(" 0a\n ff "), Ok(vec![0x0a, 0xff]));
        assert_eq!(parse_hex("abc"), Err(HexError::OddLength(3)));
        assert_eq!(
            parse_hex("0g"),
            Err(HexError::NotHex {
                position: 1,
                found: 'g'
            })
        );
    }

    #[test]
    fn keep_then_read_round_trips() {
        let dir = std::env::temp_dir().join(format!("refopt-regr-unit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = keep(&dir, "a/b", &[1, 2]).expect("writable");
        keep(&dir, "a/b", &[3]).expect("writable");
        assert_eq!(path, file_for(&dir, "a/b"));
        let all = read_dir(&dir).expect("readable");
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].1, "a/b");
        assert_eq!(all[0].2, vec![(1, vec![1, 2]), (2, vec![3])]);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_line_that_is_not_hex_is_named_with_its_path_once() {
        let dir = std::env::temp_dir().join(format!("refopt-regr-bad-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let path = keep(&dir, "a/b", &[1]).expect("writable");
        std::fs::write(&path, "01\n0g\n").expect("writable");
        let e = read_file(&path).expect_err("line 2 is not hex");
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert_eq!(
            e.to_string(),
            "line 2: 'g' at position 1 is not a hex digit"
        );
        let e = read_dir(&dir).expect_err("line 2 is not hex");
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert_eq!(
            e.to_string().matches(&*path.display().to_string()).count(),
            1
        );
        assert!(
            e.to_string()
                .ends_with("line 2: 'g' at position 1 is not a hex digit")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A file that is not `<pair>.txt` (a crash saved as `.hex`) or a directory other
    /// than `parsers/` is refused, not skipped; a README, a hidden file and `parsers/`
    /// are fine.
    #[test]
    fn a_file_that_is_not_txt_is_refused() {
        let dir = std::env::temp_dir().join(format!("refopt-regr-ext-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        keep(&dir, "a/b", &[1]).expect("writable");
        std::fs::write(dir.join("README.md"), "notes\n").expect("writable");
        std::fs::create_dir_all(dir.join("parsers")).expect("writable");
        std::fs::write(dir.join(".x.txt.swp"), "").expect("writable");
        assert_eq!(
            read_dir(&dir)
                .expect("only .txt, a README, a hidden file, parsers/")
                .len(),
            1
        );
        std::fs::create_dir_all(dir.join("parser")).expect("writable");
        let e = read_dir(&dir).expect_err("a misspelt directory");
        assert!(e.to_string().contains("parser:"), "{e}");
        std::fs::remove_dir(dir.join("parser")).expect("removable");
        std::fs::write(dir.join("crash-1.hex"), "01\n").expect("writable");
        let e = read_dir(&dir).expect_err("a .hex file");
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert!(e.to_string().contains("crash-1.hex"), "{e}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
