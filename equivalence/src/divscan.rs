//! A static check for secret-dependent division: valgrind memcheck does not see a
//! division by a secret, and on common CPUs `div`/`idiv` take a time that depends on
//! their operands (KyberSlash). [`scan`] disassembles a release binary with `objdump`
//! (line tables and inline chains) and collects every division instruction in the code
//! a [`Scope`] names; [`report`] applies an allow-list whose every entry says why that
//! division only ever sees public values.
//!
//! `refopt-ctgrind scan-divisions` runs it on the lab's own scope (the workspace crates
//! and the hash crates they feed secrets to); `refopt scan-divisions --function NAME`
//! runs it on any functions, for a crate that brings its own optimization.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::io::{self, BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

use crate::tool;

/// Which code is secret-handling.
#[derive(Clone, Copy, Debug)]
pub struct Scope<'a> {
    /// Substrings of a demangled function name (of the enclosing function, or of a
    /// function inlined at the instruction).
    pub names: &'a [&'a str],
    /// Substrings of a source path anywhere in an instruction's inline chain: catches
    /// code inlined into a generic function whose symbol names only `core`.
    pub paths: &'a [&'a str],
}

/// A division in secret-handling code that only ever sees public values.
#[derive(Clone, Copy, Debug)]
pub struct Allowed {
    /// The demangled name of the enclosing function.
    pub function: &'static str,
    /// How many division instructions it holds: more is reported, and so is fewer
    /// (a stale entry, whose slack would let a new division through).
    pub max: usize,
    /// Why every operand is public.
    pub why: &'static str,
}

/// Per enclosing function: its in-scope divisions (address, instruction, the
/// innermost source location of the scoped code).
pub type Found = BTreeMap<String, Vec<String>>;

/// What a scan saw.
#[derive(Clone, Debug, Default)]
pub struct Scan {
    /// Functions in the binary.
    pub functions: usize,
    /// Functions with at least one in-scope instruction.
    pub in_scope_functions: usize,
    /// In-scope instructions.
    pub instructions: usize,
    /// The in-scope divisions.
    pub found: Found,
    /// For each of the scope's names, in order: how many function headers or inline
    /// frames it matched (0: the name matched nothing, a typo or a function inlined
    /// away under another name).
    pub name_matches: Vec<usize>,
}

/// A division instruction (AT&T mnemonics: `div`, `idiv`, with a size suffix).
fn is_division(mnemonic: &str) -> bool {
    let m = mnemonic.strip_prefix('i').unwrap_or(mnemonic);
    matches!(m, "div" | "divb" | "divw" | "divl" | "divq")
}

/// A source location line of `objdump -l --inlines`: "/path/file.rs:12", or
/// "inlined by /path/file.rs:34 (function)". Returns (path and line, function).
fn location(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix("inlined by ").unwrap_or(line);
    if !rest.starts_with('/') {
        return None;
    }
    match rest.split_once(" (") {
        Some((loc, f)) => Some((loc, f.strip_suffix(')').unwrap_or(f))),
        None => Some((rest, "")),
    }
}

/// Disassembles `binary` with line numbers and inline chains, and collects the
/// divisions in the code `scope` names.
///
/// # Errors
/// [`tool::Error`] when objdump (binutils) is missing or fails on the file.
pub fn scan(binary: &Path, scope: &Scope<'_>) -> Result<Scan, tool::Error> {
    scan_with(OsStr::new("objdump"), binary, scope)
}

/// [`scan`] with `program` standing in for `objdump`.
fn scan_with(program: &OsStr, binary: &Path, scope: &Scope<'_>) -> Result<Scan, tool::Error> {
    let what = || format!("objdump (binutils) on {}", binary.display());
    let mut child = Command::new(program)
        .args(["-d", "-l", "--inlines", "-C", "-w", "--no-show-raw-insn"])
        .arg(binary)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|source| tool::Error::Spawn {
            what: what(),
            source,
        })?;
    let (Some(stdout), Some(mut stderr)) = (child.stdout.take(), child.stderr.take()) else {
        return Err(tool::Error::Io {
            what: what(),
            source: io::Error::other("no standard output or error"),
        });
    };
    // Standard error is drained beside the listing: a program that filled its
    // stderr pipe before it finished the listing would otherwise block both sides.
    let (parsed, stderr) = std::thread::scope(|t| {
        let drain = t.spawn(move || {
            let mut text = String::new();
            let _ = io::Read::read_to_string(&mut stderr, &mut text);
            text
        });
        // The listing's reader is dropped on return, so a program still writing
        // after a read error gets a broken pipe and ends, and the drain with it.
        let parsed = parse(BufReader::new(stdout), scope);
        (parsed, drain.join().unwrap_or_default())
    });
    let status = child.wait().map_err(|source| tool::Error::Io {
        what: what(),
        source,
    })?;
    // A read error comes first: the program may have died of the broken pipe it left.
    let s = parsed.map_err(|source| tool::Error::Io {
        what: what(),
        source,
    })?;
    if !status.success() {
        return Err(tool::Error::Failed {
            what: what(),
            status,
            stderr: stderr.trim().to_owned(),
        });
    }
    Ok(s)
}

/// Collects the divisions of an `objdump -d -l --inlines` listing in the code `scope`
/// names.
fn parse(listing: impl BufRead, scope: &Scope<'_>) -> io::Result<Scan> {
    let mut s = Scan {
        name_matches: vec![0; scope.names.len()],
        ..Scan::default()
    };
    let count_names = |s: &mut Scan, name: &str| {
        for (i, p) in scope.names.iter().enumerate() {
            if name.contains(p) {
                s.name_matches[i] += 1;
            }
        }
    };
    let mut function = String::new();
    let mut function_in_scope = false;
    let mut counted = false;
    // The current inline chain, split as objdump prints it: the innermost location
    // (printed when it changes) and the "inlined by" lines (reprinted after
    // instructions); for each, where it first touches our code, if it does.
    let mut inner: Option<String> = None;
    let mut outer: Option<String> = None;
    let mut outer_open = false;
    for line in listing.lines() {
        let line = line?;
        // "0000000000063680 <reference::sntrup761::encode::decode>:"
        if let Some(name) = line
            .strip_suffix(">:")
            .and_then(|l| l.split_once(" <"))
            .filter(|(addr, _)| addr.bytes().all(|b| b.is_ascii_hexdigit()))
            .map(|(_, n)| n)
        {
            function = name.to_owned();
            function_in_scope = scope.names.iter().any(|p| name.contains(p));
            count_names(&mut s, name);
            s.functions += 1;
            counted = false;
            (inner, outer, outer_open) = (None, None, false);
            continue;
        }
        if let Some((loc, f)) = location(&line) {
            let ours = scope.paths.iter().any(|p| loc.contains(p))
                || scope.names.iter().any(|p| !f.is_empty() && f.contains(p));
            if !f.is_empty() {
                count_names(&mut s, f);
            }
            if line.starts_with("inlined by ") {
                if !outer_open {
                    outer = None;
                    outer_open = true;
                }
                if ours && outer.is_none() {
                    outer = Some(loc.to_owned());
                }
            } else {
                inner = ours.then(|| loc.to_owned());
                outer = None;
                outer_open = true;
            }
            continue;
        }
        // "   63696:\tdiv    %r9d"
        let Some((addr, insn)) = line.split_once(":\t") else {
            continue;
        };
        if !addr.trim().bytes().all(|b| b.is_ascii_hexdigit()) {
            continue;
        }
        outer_open = false;
        let chain_where = inner.as_ref().or(outer.as_ref());
        let in_scope = function_in_scope || chain_where.is_some();
        if !in_scope {
            continue;
        }
        if !counted {
            s.in_scope_functions += 1;
            counted = true;
        }
        s.instructions += 1;
        let mnemonic = insn.split_whitespace().next().unwrap_or("");
        if is_division(mnemonic) {
            let at = chain_where.map_or(String::new(), |w| format!("  [{w}]"));
            s.found.entry(function.clone()).or_default().push(format!(
                "{}: {}{at}",
                addr.trim(),
                insn.trim()
            ));
        }
    }
    Ok(s)
}

/// Writes what `s` scanned in `binary`, the allowed divisions with their reasons and
/// every other division; returns how many divisions were reported (not allowed).
///
/// # Errors
/// An I/O error writing `out`.
pub fn report(
    out: &mut dyn Write,
    binary: &Path,
    s: &Scan,
    allowed: &[Allowed],
) -> io::Result<usize> {
    writeln!(
        out,
        "scan-divisions: {}: {} functions, {} of them in scope ({} instructions)",
        binary.display(),
        s.functions,
        s.in_scope_functions,
        s.instructions
    )?;
    let mut reported = 0;
    for (name, divs) in &s.found {
        match allowed.iter().find(|a| a.function == name) {
            Some(a) if divs.len() == a.max => {
                writeln!(
                    out,
                    "  allowed  {name}: {} division(s): {}",
                    divs.len(),
                    a.why
                )?;
            }
            Some(a) if divs.len() < a.max => {
                // Slack in an entry would let a new division through unreported.
                reported += 1;
                writeln!(
                    out,
                    "  STALE    {name}: {} division(s), the allow-list says {}: set it to the count",
                    divs.len(),
                    a.max
                )?;
            }
            _ => {
                reported += divs.len();
                writeln!(out, "  REPORTED {name}: {} division(s)", divs.len())?;
                for d in divs {
                    writeln!(out, "           {d}")?;
                }
            }
        }
    }
    for a in allowed {
        if !s.found.contains_key(a.function) {
            reported += 1;
            writeln!(
                out,
                "  STALE    allow-list entry {} matched nothing (it allows {})",
                a.function, a.max
            )?;
        }
    }
    if reported > 0 {
        writeln!(
            out,
            "scan-divisions: {reported} division(s) in the scanned code"
        )?;
    } else {
        writeln!(
            out,
            "scan-divisions: no division in the scanned code outside the allow-list"
        )?;
    }
    Ok(reported)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_allow_list_entry_allows_exactly_its_count() {
        let allowed = [Allowed {
            function: "f",
            max: 2,
            why: "public",
        }];
        let run = |n: usize| {
            let mut found = Found::new();
            if n > 0 {
                found.insert("f".to_owned(), vec!["div".to_owned(); n]);
            }
            let s = Scan {
                functions: 1,
                in_scope_functions: 1,
                instructions: 10,
                found,
                name_matches: vec![1],
            };
            let mut out = Vec::new();
            report(&mut out, Path::new("bin"), &s, &allowed).unwrap()
        };
        assert_eq!(run(2), 0, "the count itself is allowed");
        assert!(run(3) > 0, "one more is reported");
        assert!(
            run(1) > 0,
            "one fewer is stale: slack would hide a new division"
        );
        assert!(run(0) > 0, "an entry matching nothing is stale");
    }

    /// A division is in scope through its enclosing function's name, or through a
    /// source path in its inline chain (innermost or an "inlined by" line) when the
    /// function's own name is outside (a generic `core` function that our code was
    /// inlined into); a division with no such link is not.
    #[test]
    fn scope_by_name_or_by_inline_chain() {
        let listing = "\
0000000000001000 <reference::a::f>:
/x/reference/src/a.rs:1
    1000:\tdivl   %ecx
0000000000002000 <core::array::from_fn>:
/rustc/abc/library/core/src/array.rs:1
inlined by /x/reference/src/b.rs:2 (reference::b::g)
    2000:\tidivq  %rcx
/rustc/abc/library/core/src/array.rs:5
    2004:\tdivq   %rsi
0000000000003000 <core::fmt::write>:
/rustc/abc/library/core/src/fmt.rs:9
    3000:\tdivl   %r8d
";
        let scope = Scope {
            names: &["reference::"],
            paths: &["/reference/src/"],
        };
        let s = parse(io::Cursor::new(listing), &scope).expect("parses");
        assert_eq!(s.functions, 3);
        assert_eq!(s.in_scope_functions, 2, "{:?}", s.found);
        assert_eq!(s.found["reference::a::f"].len(), 1);
        // Only the division whose chain reaches reference/src/b.rs; the next one's
        // innermost location is core's, with no "inlined by" line after it.
        let from_fn = &s.found["core::array::from_fn"];
        assert_eq!(from_fn.len(), 1, "{from_fn:?}");
        assert!(from_fn[0].contains("idivq") && from_fn[0].contains("b.rs:2"));
        assert!(!s.found.contains_key("core::fmt::write"));
    }

    #[test]
    fn division_mnemonics() {
        for m in ["div", "divl", "divq", "idivl", "idivq", "divb", "idivw"] {
            assert!(is_division(m), "{m}");
        }
        for m in ["divss", "divsd", "vdivps", "mul", "imul", "shr"] {
            assert!(!is_division(m), "{m}");
        }
    }

    #[test]
    fn a_file_objdump_refuses_is_a_typed_failure() {
        let missing = Path::new("/nonexistent/refopt-divscan-test");
        let scope = Scope {
            names: &["x"],
            paths: &[],
        };
        match scan(missing, &scope) {
            Err(tool::Error::Failed { what, stderr, .. }) => {
                assert!(what.contains("/nonexistent/refopt-divscan-test"), "{what}");
                assert!(!stderr.is_empty());
            }
            other => panic!("expected objdump to fail on a missing file: {other:?}"),
        }
    }

    #[test]
    fn a_program_that_fills_its_stderr_first_does_not_block_the_scan() {
        // 256 KiB of warnings before the listing: more than a pipe holds.
        let fake = tool::script(
            "objdump",
            "head -c 262144 /dev/zero | tr '\\0' w >&2\n\
             printf '0000000000001000 <secret_fn>:\\n    1000:\\tdiv    %%r9d\\n'",
        );
        let scanned = tool::within(std::time::Duration::from_secs(60), move || {
            let scope = Scope {
                names: &["secret_fn"],
                paths: &[],
            };
            scan_with(fake.as_os_str(), Path::new("unused"), &scope).map_err(|e| e.to_string())
        })
        .expect("the scan finished within 60 s")
        .expect("the scan succeeded");
        assert_eq!(scanned.functions, 1);
        assert_eq!(scanned.found["secret_fn"], ["1000: div    %r9d"]);
    }

    #[test]
    fn objdump_locations() {
        assert_eq!(location("/a/b.rs:12"), Some(("/a/b.rs:12", "")));
        assert_eq!(
            location("inlined by /a/b.rs:34 (f)"),
            Some(("/a/b.rs:34", "f"))
        );
        assert_eq!(location("  63696:\tdiv %r9d"), None);
    }
}
