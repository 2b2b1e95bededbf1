//! The generated documents: docs/RESULTS.md, the result sections of the scheme pages
//! and the SVG charts, all from the committed baseline, the wall-clock runs and the
//! history. Every number a table shows is looked up by its benchmark key; a missing
//! key is an error, never an empty cell that reads as "not measured".

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::data::{Baseline, HistoryLine, Measure, WallClock, median};
use crate::svg::{self, Bar, Group, Series};

/// Inputs of the generation.
pub(crate) struct Ctx<'a> {
    /// The committed baseline.
    pub(crate) base: &'a Baseline,
    /// Wall-clock runs.
    pub(crate) wall: &'a WallClock,
    /// The history of instruction counts.
    pub(crate) history: &'a [HistoryLine],
    /// Crate name -> version(s), from Cargo.lock (the peers' versions in the labels).
    pub(crate) versions: &'a BTreeMap<String, String>,
}

/// `name version` of a peer crate, as locked.
fn peer_version(c: &Ctx, name: &str) -> String {
    match c.versions.get(name) {
        Some(v) => format!("{name} {v}"),
        None => format!("{name} (version not in Cargo.lock)"),
    }
}

/// Crate name -> version(s) from the text of a Cargo.lock (several versions joined by
/// "/").
pub(crate) fn lock_versions(lock: &str) -> BTreeMap<String, String> {
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    let mut name = None;
    for line in lock.lines() {
        if let Some(n) = line.strip_prefix("name = ") {
            name = Some(n.trim_matches('"').to_owned());
        } else if let (Some(v), Some(n)) = (line.strip_prefix("version = "), name.take()) {
            let v = v.trim_matches('"');
            out.entry(n)
                .and_modify(|e| {
                    e.push('/');
                    e.push_str(v);
                })
                .or_insert_with(|| v.to_owned());
        }
    }
    out
}

/// What the generation produces: whole files and sections of scheme pages.
#[derive(Default)]
pub(crate) struct Output {
    /// Path under docs/ -> whole file contents.
    pub(crate) files: BTreeMap<String, String>,
    /// (page under docs/, section name) -> section contents (between the markers).
    pub(crate) sections: BTreeMap<(String, String), String>,
}

type R<T> = Result<T, String>;

// ---------------------------------------------------------------- formatting

/// 1234567 -> "1,234,567".
pub(crate) fn int(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// 53_170_000 -> "53.17M".
fn mega(n: u64) -> String {
    format!("{:.2}M", n as f64 / 1e6)
}

fn ratio(a: u64, b: u64) -> String {
    format!("{:.2}×", a as f64 / b as f64)
}

fn heap(m: Measure) -> String {
    if m.heap_blocks == 0 {
        "0".to_owned()
    } else {
        format!("{} B in {}", int(m.heap_bytes), m.heap_blocks)
    }
}

fn time(ns: f64) -> String {
    if ns >= 1e6 {
        format!("{:.2} ms", ns / 1e6)
    } else {
        format!("{:.2} µs", ns / 1e3)
    }
}

/// The smallest and the largest of positive times or ratios.
fn min_max(v: &[f64]) -> (f64, f64) {
    v.iter()
        .fold((f64::MAX, 0.0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)))
}

/// Median and range of a wall-clock id: "30.13 µs (29.9–31.0)".
fn wall_cell(w: &WallClock, id: &str) -> R<String> {
    let v = w.get(id)?;
    let (lo, hi) = min_max(v);
    let m = median(v);
    let scale = if m >= 1e6 { 1e6 } else { 1e3 };
    Ok(format!("{} ({:.2}–{:.2})", time(m), lo / scale, hi / scale))
}

/// The per-run ratio before/after: median and range over the runs.
fn wall_ratio(w: &WallClock, before: &str, after: &str) -> R<String> {
    let (b, a) = (w.get(before)?, w.get(after)?);
    let r: Vec<f64> = b.iter().zip(a).map(|(x, y)| x / y).collect();
    let (lo, hi) = min_max(&r);
    Ok(format!("{:.2}× ({:.2}–{:.2})", median(&r), lo, hi))
}

fn runs(w: &WallClock) -> String {
    let n = w.meta.get("runs").map_or("?", String::as_str);
    // "1/5/15-minute load average a b c ...": the 15-minute figure.
    let load = w
        .meta
        .get("load")
        .and_then(|l| l.split("load average ").nth(1))
        .and_then(|l| l.split_whitespace().nth(2))
        .map_or("not recorded".to_owned(), |l| format!("{l} on 2 cores"));
    let commit = w.commit();
    format!("commit {commit}, {n} runs; 15-minute load average {load}")
}

/// The conditions every instruction table was measured under, one paragraph.
fn measured_on(b: &Baseline) -> String {
    format!(
        "Instruction counts and heap use: commit `{}`, `{}`, CPU {}, {}, gungraun {} \
         (iai-callgrind's new name since 0.17; Callgrind `Ir` and DHAT per benchmark \
         function, setup excluded), profile `bench` (release: opt-level 3, \
         codegen-units 16, no `target-cpu`; AVX2/PCLMULQDQ only by runtime detection). \
         Counts are exact and repeatable on this machine; they are not cycles.",
        b.meta("commit"),
        b.meta("rustc"),
        b.meta("cpu"),
        b.meta("valgrind"),
        b.meta("gungraun")
    )
}

/// How far one benchmark's run medians spread: (largest / smallest − 1) in percent,
/// as (the median over benchmarks, the largest).
fn run_spread(w: &WallClock) -> R<(f64, f64)> {
    let mut spreads: Vec<f64> = w
        .runs
        .values()
        .filter(|r| !r.is_empty())
        .map(|r| {
            let (lo, hi) = min_max(r);
            100.0 * (hi / lo - 1.0)
        })
        .collect();
    spreads.sort_by(f64::total_cmp);
    match spreads.last() {
        Some(&largest) => Ok((median(&spreads), largest)),
        None => Err("the wall-clock file holds no runs".to_owned()),
    }
}

fn wall_on(w: &WallClock, b: &Baseline) -> R<String> {
    let (typical, largest) = run_spread(w)?;
    let wall_commit = w.commit();
    let stale = if wall_commit == b.meta("commit") {
        String::new()
    } else {
        format!(
            " The instruction counts are from commit `{}`: a wall-clock ratio \
             beside an instruction ratio compares two commits, and the code changed between \
             them (`git log {wall_commit}..{}`); wall-clock was not measured again.",
            b.meta("commit"),
            b.meta("commit")
        )
    };
    Ok(format!(
        "Wall-clock: criterion (1 s warm-up, 2 s measurement), the median of each of {} \
         runs, commit `{}`, CPU {}, a 2-core machine shared with other jobs ({}): the \
         largest of one benchmark's run medians exceeds the smallest by {typical:.0} % \
         (the median over benchmarks) and by up to {largest:.0} %, so read these as \
         rough and the instruction counts as the measurement. Each cell is the median \
         of the run medians with the range over runs in brackets, each ratio the median \
         of the per-run ratios with their range.{stale}",
        w.meta.get("runs").map_or("?", String::as_str),
        w.commit(),
        w.meta.get("cpu").map_or("unknown", String::as_str),
        w.meta
            .get("load")
            .map_or("load not recorded", String::as_str),
    ))
}

struct Table {
    head: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    fn new(head: &[&str]) -> Self {
        Table {
            head: head.iter().map(|s| (*s).to_owned()).collect(),
            rows: Vec::new(),
        }
    }
    fn row(&mut self, r: Vec<String>) {
        self.rows.push(r);
    }
    fn md(&self) -> String {
        let mut s = format!("| {} |\n|", self.head.join(" | "));
        for _ in &self.head {
            s.push_str("---|");
        }
        s.push('\n');
        for r in &self.rows {
            let _ = writeln!(s, "| {} |", r.join(" | "));
        }
        s
    }
}

// ---------------------------------------------------------------- ML-KEM

const MK: &str = "mlkem_instructions::refopt_mlkem::";
const MKP: &str = "mlkem_instructions::peers_mlkem::";
const MKA: &str = "mlkem_instructions::peers_mlkem_avx2::";

fn mk(op: &str, set: &str, tier: &str) -> String {
    format!("{MK}{op}/ml_kem_{set}_{tier}")
}

struct Section {
    /// Headline lines for RESULTS.md (each with its conditions).
    headlines: Vec<String>,
    /// The scheme page's generated section.
    page: String,
    /// The chart.
    svg: String,
}

fn mlkem(c: &Ctx) -> R<Section> {
    let b = c.base;
    let g = |k: &str| b.get(k);
    let mut page = String::new();
    let mut t = Table::new(&[
        "ML-KEM-768",
        "before (reference)",
        "after (optimized)",
        "speedup",
        "Go CL 715381 (seed: Apple M2, µs)",
    ]);
    let kg = g(&format!("{MK}keygen/ml_kem_768"))?;
    t.row(vec![
        "KeyGen (shared code)".into(),
        int(kg.ir),
        int(kg.ir),
        "1.00×".into(),
        "28.95 → 28.64, ~".into(),
    ]);
    let seed = [
        ("encaps", "Encaps", "43.13 → 35.02, 1.23×"),
        (
            "decaps_parsed_key",
            "Decaps (parsed key)",
            "43.80 → 35.49, 1.23×",
        ),
    ];
    for (op, label, s) in seed {
        let (r, o) = (
            g(&mk(op, "768", "reference"))?,
            g(&mk(op, "768", "optimized"))?,
        );
        t.row(vec![
            label.into(),
            int(r.ir),
            int(o.ir),
            format!("**{}**", ratio(r.ir, o.ir)),
            s.into(),
        ]);
    }
    let _ = write!(
        page,
        "Seed format, instructions per operation (Go's benchmark setting: `encaps` parses \
         the encoded key on every call, `decaps` uses a parsed key):\n\n{}\n",
        t.md()
    );
    let mut t = Table::new(&["operation", "set", "reference", "optimized", "speedup"]);
    for op in ["encaps", "decaps", "decaps_parsed_key"] {
        for set in ["512", "768", "1024"] {
            let (r, o) = (g(&mk(op, set, "reference"))?, g(&mk(op, set, "optimized"))?);
            t.row(vec![
                op.replace('_', " "),
                format!("ML-KEM-{set}"),
                int(r.ir),
                int(o.ir),
                ratio(r.ir, o.ir),
            ]);
        }
    }
    for set in ["512", "768", "1024"] {
        let k = g(&format!("{MK}keygen/ml_kem_{set}"))?;
        t.row(vec![
            "keygen (shared)".into(),
            format!("ML-KEM-{set}"),
            int(k.ir),
            int(k.ir),
            "1.00×".into(),
        ]);
    }
    let _ = write!(
        page,
        "All sets (`decaps` takes the encoded key and checks its hash on every call):\n\n{}\n",
        t.md()
    );
    let opt_e = g(&mk("encaps", "768", "optimized"))?;
    let opt_d = g(&mk("decaps", "768", "optimized"))?;
    let (lc_avx2, lc_port, rc) = (
        format!(
            "{}, AVX2 build (Keccak, NTT and arithmetic in AVX2)",
            peer_version(c, "libcrux-ml-kem")
        ),
        format!(
            "{}, portable (no SIMD at all)",
            peer_version(c, "libcrux-ml-kem")
        ),
        format!("RustCrypto {} (portable)", peer_version(c, "ml-kem")),
    );
    let peers = [
        (
            lc_avx2.as_str(),
            None,
            format!("{MKA}libcrux_avx2_768_encaps/ml_kem_768"),
            format!("{MKA}libcrux_avx2_768_decaps/ml_kem_768"),
        ),
        (
            lc_port.as_str(),
            Some(format!("{MKP}libcrux_portable_768_keygen")),
            format!("{MKP}libcrux_portable_768_encaps/ml_kem_768"),
            format!("{MKP}libcrux_portable_768_decaps/ml_kem_768"),
        ),
        (
            rc.as_str(),
            Some(format!("{MKP}ml_kem_crate_768_keygen")),
            format!("{MKP}ml_kem_crate_768_encaps/ml_kem_768"),
            format!("{MKP}ml_kem_crate_768_decaps/ml_kem_768"),
        ),
    ];
    let mut t = Table::new(&[
        "ML-KEM-768 implementation",
        "keygen",
        "encaps",
        "decaps (encoded key)",
        "refopt optimized encaps / this",
    ]);
    t.row(vec![
        "refopt optimized (AVX2 four-way Keccak, scalar NTT)".into(),
        int(kg.ir),
        int(opt_e.ir),
        int(opt_d.ir),
        "1.00×".into(),
    ]);
    let mut bars_peers = Vec::new();
    for (name, k, e, d) in &peers {
        let (e, d) = (g(e)?, g(d)?);
        let k = match k {
            Some(k) => int(g(k)?.ir),
            None => "–".into(),
        };
        t.row(vec![
            (*name).into(),
            k,
            int(e.ir),
            int(d.ir),
            ratio(opt_e.ir, e.ir),
        ]);
        let short = match name.split(',').nth(1).map(str::trim) {
            Some(b) if b.starts_with("AVX2") => "libcrux (AVX2)",
            Some(_) => "libcrux (portable)",
            None => "RustCrypto ml-kem (portable)",
        };
        bars_peers.push((short.to_owned(), e, d));
    }
    let avx2_e = g(&format!("{MKA}libcrux_avx2_768_encaps/ml_kem_768"))?;
    let _ = write!(
        page,
        "Beside other implementations (instructions, one operation; the peers take \
         encoded keys). refopt's tiers hash on AVX2, so the like-for-like peer is \
         libcrux's AVX2 build; libcrux portable has no SIMD at all and is listed for \
         reference, not as a comparison of equals:\n\n{}\n",
        t.md()
    );
    let mut t = Table::new(&["ML-KEM-768 operation", "reference heap", "optimized heap"]);
    for op in ["encaps", "decaps", "decaps_parsed_key"] {
        let (r, o) = (
            g(&mk(op, "768", "reference"))?,
            g(&mk(op, "768", "optimized"))?,
        );
        t.row(vec![op.replace('_', " "), heap(r), heap(o)]);
    }
    t.row(vec!["keygen".into(), heap(kg), heap(kg)]);
    let _ = write!(
        page,
        "Heap (DHAT: bytes in blocks allocated inside the operation; the other sets \
         are in `benches/baselines/instructions.txt`):\n\n{}\n",
        t.md()
    );
    let w = c.wall;
    let mut t = Table::new(&[
        "ML-KEM-768",
        "reference",
        "optimized",
        "speedup",
        "libcrux AVX2",
    ]);
    for op in ["keygen", "encaps", "decaps"] {
        let id = |imp: &str| format!("ML-KEM-768/{op}/{imp}");
        t.row(vec![
            op.into(),
            wall_cell(w, &id("reference"))?,
            wall_cell(w, &id("optimized"))?,
            wall_ratio(w, &id("reference"), &id("optimized"))?,
            if op == "keygen" {
                "–".into()
            } else {
                wall_cell(w, &id("libcrux-avx2"))?
            },
        ]);
    }
    let _ = write!(
        page,
        "Wall-clock (criterion; `decaps` here uses a parsed key, Go's setting):\n\n{}\n{}\n",
        t.md(),
        wall_on(w, b)?
    );
    let (re, oe) = (g(&mk("encaps", "768", "reference"))?, opt_e);
    let (rd, od) = (
        g(&mk("decaps_parsed_key", "768", "reference"))?,
        g(&mk("decaps_parsed_key", "768", "optimized"))?,
    );
    let headlines = vec![
        format!(
            "ML-KEM-768 encaps / decaps: **{} / {}** fewer instructions, optimized vs \
             reference (gungraun Ir, profile `bench`, no `target-cpu`; derandomized: fixed \
             d, z and m; both tiers on the shared AVX2 four-way Keccak, scalar NTT; Go's \
             setting: encaps parses the key, decaps uses a parsed key; seed 1.23× / 1.23× \
             in time on an Apple M2).",
            ratio(re.ir, oe.ir),
            ratio(rd.ir, od.ir)
        ),
        format!(
            "ML-KEM-768 encaps wall-clock: **{}** (median and range of the per-run ratios; \
             criterion, {}, shared AMD EPYC).",
            wall_ratio(
                w,
                "ML-KEM-768/encaps/reference",
                "ML-KEM-768/encaps/optimized"
            )?,
            runs(w)
        ),
        format!(
            "SIMD against SIMD: the optimized tier needs **{}** the instructions of \
             libcrux's AVX2 build per ML-KEM-768 encapsulation ({} vs {}; libcrux also \
             vectorises the NTT and the arithmetic, refopt only the Keccak).",
            ratio(oe.ir, avx2_e.ir),
            int(oe.ir),
            int(avx2_e.ir)
        ),
    ];
    let mut groups = Vec::new();
    for (op, label) in [
        ("encaps", "encaps (encoded key)"),
        ("decaps", "decaps (encoded key)"),
    ] {
        let (r, o) = (
            g(&mk(op, "768", "reference"))?,
            g(&mk(op, "768", "optimized"))?,
        );
        let mut bars = vec![
            Bar {
                label: "reference".into(),
                value: r.ir as f64,
                role: "before",
            },
            Bar {
                label: "optimized".into(),
                value: o.ir as f64,
                role: "after",
            },
        ];
        for (n, e, d) in &bars_peers {
            bars.push(Bar {
                label: n.clone(),
                value: if op == "encaps" { e.ir } else { d.ir } as f64,
                role: "peer",
            });
        }
        groups.push(Group {
            label: format!("ML-KEM-768 {label}"),
            bars,
        });
    }
    for set in ["512", "1024"] {
        let (r, o) = (
            g(&mk("encaps", set, "reference"))?,
            g(&mk("encaps", set, "optimized"))?,
        );
        groups.push(Group {
            label: format!("ML-KEM-{set} encaps"),
            bars: vec![
                Bar {
                    label: "reference".into(),
                    value: r.ir as f64,
                    role: "before",
                },
                Bar {
                    label: "optimized".into(),
                    value: o.ir as f64,
                    role: "after",
                },
            ],
        });
    }
    let svg = svg::bars(
        "ML-KEM: k instead of k² inverse NTTs (instructions per operation)",
        &format!(
            "callgrind Ir, commit {}, bars scaled per operation",
            b.meta("commit")
        ),
        &groups,
    );
    Ok(Section {
        headlines,
        page,
        svg,
    })
}

// ---------------------------------------------------------------- sntrup761

const SN: &str = "sntrup761_instructions::refopt_sntrup761::";

fn sn(op: &str, imp: &str, src: Option<&str>) -> String {
    match src {
        Some(s) => format!("{SN}{op}/{imp}_{s}"),
        None => format!("{SN}{op}/{imp}"),
    }
}

fn sntrup761(c: &Ctx) -> R<Section> {
    let b = c.base;
    let g = |k: &str| b.get(k);
    let mut page = String::new();
    // (op, sources it is measured under)
    let ops: [(&str, &[&str]); 3] = [
        ("keygen", &["chacha20", "nist_drbg", "os"]),
        ("encap", &["chacha20", "nist_drbg", "os"]),
        ("decap", &[]),
    ];
    let seed06 = [
        ("keygen", "9480.2 → 2900.4, 3.27×"),
        ("encap", "4468.2 → 1184.7, 3.77×"),
        ("decap", "3325.4 → 3322.4, 1.00×"),
    ];
    let seed07 = [
        ("keygen", "2900.4 → 1971.5, 1.47×"),
        ("encap", "1184.7 → 243.0, 4.88×"),
        ("decap", "3322.4 → 592.5, 5.61×"),
    ];
    for (title, before, after, seed) in [
        (
            "Patch 06 (`reference` → `batched-rng`)",
            "reference",
            "batched_rng",
            &seed06,
        ),
        (
            "Patch 07 (`batched-rng` → `optimized`)",
            "batched_rng",
            "optimized",
            &seed07,
        ),
    ] {
        let mut t = Table::new(&[
            "source",
            "op",
            "base",
            "before",
            "after",
            "speedup",
            "total",
            "seed (µs, Ryzen 9 9950X3D, libgcrypt CSPRNG)",
        ]);
        for (op, srcs) in ops {
            let srcs: Vec<Option<&str>> = if srcs.is_empty() {
                vec![None]
            } else {
                srcs.iter().map(|s| Some(*s)).collect()
            };
            for src in srcs {
                let (ba, be, af) = (
                    g(&sn(op, "reference", src))?,
                    g(&sn(op, before, src))?,
                    g(&sn(op, after, src))?,
                );
                let s = seed.iter().find(|x| x.0 == op).map_or("", |x| x.1);
                t.row(vec![
                    src.map_or("none".to_owned(), |s| s.replace('_', "-")),
                    op.into(),
                    mega(ba.ir),
                    mega(be.ir),
                    mega(af.ir),
                    ratio(be.ir, af.ir),
                    ratio(ba.ir, af.ir),
                    s.into(),
                ]);
            }
        }
        let _ = write!(page, "{title}, instructions per operation:\n\n{}\n", t.md());
    }
    let _ = write!(
        page,
        "\"base\" is the `reference` variant (libgcrypt just before patch 06), \
         speedup = before/after, total = base/after. With the `os` source callgrind counts \
         only the user-space side of `getrandom`. Keygen repeats `Small_random` while g \
         is not invertible mod 3; every count here is one attempt (under the NIST DRBG \
         the tiers draw different g, since that source is not call-boundary \
         invariant).\n\n"
    );
    let peer = |f: &str, id: &str| g(&format!("sntrup761_instructions::{f}/{id}"));
    let mut t = Table::new(&[
        "op",
        "reference",
        "batched-rng",
        "optimized",
        &format!("`{}` crate (chacha20)", peer_version(c, "sntrup761")),
        &format!(
            "PQClean clean ({}, os, no AVX2)",
            peer_version(c, "pqcrypto-ntruprime")
        ),
    ]);
    let mut groups = Vec::new();
    for (op, pcrate, pclean) in [
        (
            "keygen",
            "peers_sntrup761::sntrup761_crate_keygen/chacha20",
            "peers_sntrup761_pqclean::pqclean_clean_keygen/os",
        ),
        (
            "encap",
            "peers_sntrup761::sntrup761_crate_encap/chacha20",
            "peers_sntrup761_pqclean::pqclean_clean_encap/os",
        ),
        (
            "decap",
            "peers_sntrup761::sntrup761_crate_decap/none",
            "peers_sntrup761_pqclean::pqclean_clean_decap/none",
        ),
    ] {
        let src = if op == "decap" {
            None
        } else {
            Some("chacha20")
        };
        let (pf, pi) = pcrate.split_once('/').unwrap_or((pcrate, ""));
        let (qf, qi) = pclean.split_once('/').unwrap_or((pclean, ""));
        let (r, bt, o, pc, pq) = (
            g(&sn(op, "reference", src))?,
            g(&sn(op, "batched_rng", src))?,
            g(&sn(op, "optimized", src))?,
            peer(pf, pi)?,
            peer(qf, qi)?,
        );
        t.row(vec![
            op.into(),
            mega(r.ir),
            mega(bt.ir),
            format!("**{}**", mega(o.ir)),
            mega(pc.ir),
            mega(pq.ir),
        ]);
        groups.push(Group {
            label: format!("{op}{}", if src.is_some() { " (chacha20)" } else { "" }),
            bars: vec![
                Bar {
                    label: "reference".into(),
                    value: r.ir as f64,
                    role: "before",
                },
                Bar {
                    label: "batched-rng (patch 06)".into(),
                    value: bt.ir as f64,
                    role: "before",
                },
                Bar {
                    label: "optimized (patch 07)".into(),
                    value: o.ir as f64,
                    role: "after",
                },
                Bar {
                    label: "sntrup761 crate".into(),
                    value: pc.ir as f64,
                    role: "peer",
                },
                Bar {
                    label: "PQClean clean".into(),
                    value: pq.ir as f64,
                    role: "peer",
                },
            ],
        });
    }
    let _ = write!(
        page,
        "Side by side (instructions, one operation; ours and the crate read ChaCha20, \
         PQClean the OS):\n\n{}\n",
        t.md()
    );
    let mut t = Table::new(&["op", "reference", "batched-rng", "optimized"]);
    for (op, src) in [
        ("keygen", Some("chacha20")),
        ("encap", Some("chacha20")),
        ("decap", None),
    ] {
        t.row(vec![
            op.into(),
            heap(g(&sn(op, "reference", src))?),
            heap(g(&sn(op, "batched_rng", src))?),
            heap(g(&sn(op, "optimized", src))?),
        ]);
    }
    let _ = write!(
        page,
        "Heap (DHAT: bytes in blocks allocated inside the operation, ChaCha20; the API \
         returns ciphertexts in `Vec`s and keeps a key pair's sk in a box):\n\n{}\n",
        t.md()
    );
    let w = c.wall;
    let mut t = Table::new(&[
        "source",
        "reference (761 × 4 B)",
        "batched-rng (1 × 3044 B)",
        "speedup",
    ]);
    for s in ["chacha20", "nist-drbg", "os"] {
        let id = |imp: &str| format!("sntrup761/op=short-random,impl={imp},source={s}");
        t.row(vec![
            s.into(),
            wall_cell(w, &id("reference"))?,
            wall_cell(w, &id("batched-rng"))?,
            wall_ratio(w, &id("reference"), &id("batched-rng"))?,
        ]);
    }
    let _ = write!(
        page,
        "Wall-clock, patch 06 alone: one Short polynomial drawn (criterion \
         `op=short-random`); the per-call cost of the source decides the gain:\n\n{}\n",
        t.md()
    );
    let mut t = Table::new(&[
        "op (ChaCha20; decap draws nothing)",
        "reference",
        "batched-rng",
        "optimized",
        "patch 07 speedup",
    ]);
    for (op, src) in [("encap", "chacha20"), ("decap", "none")] {
        let id = |imp: &str| format!("sntrup761/op={op},impl={imp},source={src}");
        t.row(vec![
            op.into(),
            wall_cell(w, &id("reference"))?,
            wall_cell(w, &id("batched-rng"))?,
            wall_cell(w, &id("optimized"))?,
            wall_ratio(w, &id("batched-rng"), &id("optimized"))?,
        ]);
    }
    let _ = write!(
        page,
        "Wall-clock, whole operations:\n\n{}\n{}\n",
        t.md(),
        wall_on(w, b)?
    );
    let (e6, e7) = (
        g(&sn("encap", "batched_rng", Some("chacha20")))?,
        g(&sn("encap", "optimized", Some("chacha20")))?,
    );
    let (d6, d7) = (
        g(&sn("decap", "batched_rng", None))?,
        g(&sn("decap", "optimized", None))?,
    );
    let pq_e = peer("peers_sntrup761_pqclean::pqclean_clean_encap", "os")?;
    let os7 = g(&sn("encap", "optimized", Some("os")))?;
    let headlines = vec![
        format!(
            "sntrup761 patch 07 (deferred reduction): encap **{}**, decap **{}** fewer \
             instructions (ChaCha20 source; patch 07 does not change the draws, so the \
             source does not matter; seed 4.88× / 5.61× in time).",
            ratio(e6.ir, e7.ir),
            ratio(d6.ir, d7.ir)
        ),
        format!(
            "sntrup761 patch 06 (one 3044-byte draw per polynomial): encap **{}** \
             instructions with ChaCha20, **{}** with NIST's CTR-DRBG; per polynomial \
             wall-clock {} (NIST DRBG) and {} (OS source, `getrandom`; {}) — the gain is \
             the source's per-call cost (the seed reports no per-polynomial figure: 3.77× \
             per whole encapsulation with libgcrypt's CSPRNG).",
            ratio(
                g(&sn("encap", "reference", Some("chacha20")))?.ir,
                g(&sn("encap", "batched_rng", Some("chacha20")))?.ir
            ),
            ratio(
                g(&sn("encap", "reference", Some("nist_drbg")))?.ir,
                g(&sn("encap", "batched_rng", Some("nist_drbg")))?.ir
            ),
            wall_ratio(
                w,
                "sntrup761/op=short-random,impl=reference,source=nist-drbg",
                "sntrup761/op=short-random,impl=batched-rng,source=nist-drbg"
            )?,
            wall_ratio(
                w,
                "sntrup761/op=short-random,impl=reference,source=os",
                "sntrup761/op=short-random,impl=batched-rng,source=os"
            )?,
            runs(w)
        ),
        format!(
            "sntrup761 optimized encap: {} instructions, {} of PQClean clean's {} \
             (both reading the OS source, `getrandom`, whose kernel work callgrind does \
             not count; PQClean portable C, no AVX2).",
            int(os7.ir),
            ratio(os7.ir, pq_e.ir),
            int(pq_e.ir)
        ),
    ];
    let svg = svg::bars(
        "sntrup761: batched randomness (06) and deferred reduction (07)",
        &format!(
            "callgrind Ir, commit {}, bars scaled per operation",
            b.meta("commit")
        ),
        &groups,
    );
    Ok(Section {
        headlines,
        page,
        svg,
    })
}

// ---------------------------------------------------------------- NTRU

const NK: &str = "ntruhps2048509_instructions::refopt_ntru_kernels::";
const NO: &str = "ntruhps2048509_instructions::refopt_ntru::";

fn ntru(c: &Ctx) -> R<Section> {
    let b = c.base;
    let g = |k: &str| b.get(k);
    let mut page = String::new();
    let kernels = [
        (
            "`poly_R2_inv`",
            format!("{NK}poly_r2_inv_reference/reference"),
            format!("{NK}poly_r2_inv_reference/reference"),
            format!("{NK}poly_r2_inv_optimized/pclmul"),
            format!("{NK}poly_r2_inv_optimized_portable/portable"),
            "",
        ),
        (
            "`poly_Rq_mul`",
            format!("{NK}poly_rq_mul_reference/reference"),
            format!("{NK}poly_rq_mul_karatsuba/avx2"),
            format!("{NK}poly_rq_mul_karatsuba/avx2"),
            format!("{NK}poly_rq_mul_karatsuba_portable/portable"),
            "",
        ),
        (
            "`poly_Rq_inv`",
            format!("{NK}poly_rq_inv_reference/reference"),
            format!("{NK}poly_rq_inv_before/before"),
            format!("{NK}poly_rq_inv_optimized/optimized"),
            format!("{NK}poly_rq_inv_optimized_portable/portable"),
            "3.2M → 30.6k cycles = 105×; 413k → 30.6k = 13.5×",
        ),
    ];
    let mut t = Table::new(&[
        "kernel",
        "reference",
        "before",
        "optimized (PCLMULQDQ + AVX2)",
        "optimized-portable",
        "reference / optimized",
        "before / optimized",
        "seed (PR #5, i5-8250U cycles)",
    ]);
    let mut groups = Vec::new();
    for (name, r, be, o, p, seed) in &kernels {
        let (r, be, o, p) = (g(r)?, g(be)?, g(o)?, g(p)?);
        t.row(vec![
            (*name).into(),
            int(r.ir),
            int(be.ir),
            format!("**{}**", int(o.ir)),
            int(p.ir),
            ratio(r.ir, o.ir),
            ratio(be.ir, o.ir),
            (*seed).into(),
        ]);
        groups.push(Group {
            label: name.replace('`', ""),
            bars: vec![
                Bar {
                    label: "reference".into(),
                    value: r.ir as f64,
                    role: "before",
                },
                Bar {
                    label: "before".into(),
                    value: be.ir as f64,
                    role: "before",
                },
                Bar {
                    label: "optimized".into(),
                    value: o.ir as f64,
                    role: "after",
                },
                Bar {
                    label: "optimized-portable".into(),
                    value: p.ir as f64,
                    role: "after",
                },
            ],
        });
    }
    let _ = write!(
        page,
        "Kernels, instructions per call on the keygen input 3g·f of a fixed seed:\n\n{}\n\
         `reference` is the constant-time divstep R2 inverse with the schoolbook \
         `poly_Rq_mul`; `before` is the same divstep with the fast `poly_Rq_mul` (the \
         seed's \"before\" had the fast multiplication too, but its R2 inverse was the \
         2019 almost-inverse, not this divstep); `optimized` is PR #5's addition chain. \
         So reference / optimized includes the change of `poly_Rq_mul`, as the seed's \
         own 105× does, and before / optimized isolates PR #5. The `poly_R2_inv` row \
         includes packing to bits and back.\n\n",
        t.md()
    );
    // (op, reference, before, optimized, optimized-portable, ntrust-native, PQClean)
    let ops = [
        (
            "keygen",
            Some(format!("{NO}keygen_reference")),
            Some(format!("{NO}keygen_before")),
            format!("{NO}keygen_optimized"),
            format!("{NO}keygen_optimized_portable"),
            "ntrust_native_keygen",
            "pqclean_clean_keygen/os",
        ),
        (
            "enc",
            Some(format!("{NO}enc_reference/fixed_seed")),
            None,
            format!("{NO}enc_optimized/fixed_seed"),
            format!("{NO}enc_optimized_portable/fixed_seed"),
            "ntrust_native_enc/fixed_rng",
            "pqclean_clean_enc/os",
        ),
        (
            "dec",
            Some(format!("{NO}dec_reference/fixed_seed")),
            None,
            format!("{NO}dec_optimized/fixed_seed"),
            format!("{NO}dec_optimized_portable/fixed_seed"),
            "ntrust_native_dec/fixed_rng",
            "pqclean_clean_dec/none",
        ),
    ];
    let mut t = Table::new(&[
        "operation",
        "reference",
        "before",
        "optimized (PCLMULQDQ + AVX2)",
        "optimized-portable",
        &format!("{} (portable)", peer_version(c, "ntrust-native")),
        &format!(
            "PQClean clean ({}, portable C)",
            peer_version(c, "pqcrypto-ntru")
        ),
        "optimized-portable / PQClean",
        "optimized heap",
    ]);
    let mut enc = (0, 0, 0);
    for (op, r, be, o, op_, nn, pq) in &ops {
        let (o, p) = (g(o)?, g(op_)?);
        let nn = g(&format!("ntruhps2048509_instructions::peers_ntru::{nn}"))?;
        let pq = g(&format!(
            "ntruhps2048509_instructions::peers_ntru_pqclean::{pq}"
        ))?;
        let cell = |k: &Option<String>| -> R<String> {
            Ok(match k {
                Some(k) => int(g(k)?.ir),
                None => "= optimized".into(),
            })
        };
        t.row(vec![
            (*op).into(),
            cell(r)?,
            cell(be)?,
            format!("**{}**", int(o.ir)),
            int(p.ir),
            int(nn.ir),
            int(pq.ir),
            ratio(p.ir, pq.ir),
            heap(o),
        ]);
        if *op == "enc" {
            enc = (o.ir, p.ir, pq.ir);
        }
        let mut bars = Vec::new();
        if let Some(r) = r {
            bars.push(Bar {
                label: "reference".into(),
                value: g(r)?.ir as f64,
                role: "before",
            });
        }
        bars.push(Bar {
            label: "optimized".into(),
            value: o.ir as f64,
            role: "after",
        });
        bars.push(Bar {
            label: "optimized-portable".into(),
            value: p.ir as f64,
            role: "after",
        });
        bars.push(Bar {
            label: "ntrust-native".into(),
            value: nn.ir as f64,
            role: "peer",
        });
        bars.push(Bar {
            label: "PQClean clean".into(),
            value: pq.ir as f64,
            role: "peer",
        });
        groups.push(Group {
            label: (*op).into(),
            bars,
        });
    }
    let _ = write!(
        page,
        "Operations (ours derandomized, seeds drawn in setup; ntrust-native reads a \
         cheap fixed generator; PQClean the OS, whose kernel time callgrind does not \
         see). enc and dec call no R2 inverse, so `before` equals `optimized` there. The \
         peers are portable code, so the like-for-like comparison is \
         `optimized-portable` against them:\n\n{}\n",
        t.md()
    );
    let w = c.wall;
    let id = |op: &str, imp: &str| format!("scheme=ntruhps2048509,op={op},impl={imp}");
    let mut t = Table::new(&[
        "op",
        "reference",
        "before",
        "optimized",
        "reference / optimized",
        "before / optimized",
    ]);
    t.row(vec![
        "`poly_Rq_inv`".into(),
        wall_cell(w, &id("poly_Rq_inv", "reference"))?,
        wall_cell(w, &id("poly_Rq_inv", "before"))?,
        wall_cell(w, &id("poly_Rq_inv", "optimized"))?,
        wall_ratio(
            w,
            &id("poly_Rq_inv", "reference"),
            &id("poly_Rq_inv", "optimized"),
        )?,
        wall_ratio(
            w,
            &id("poly_Rq_inv", "before"),
            &id("poly_Rq_inv", "optimized"),
        )?,
    ]);
    let _ = write!(page, "Wall-clock:\n\n{}\n", t.md());
    let mut t = Table::new(&[
        "op",
        "optimized (PCLMULQDQ + AVX2)",
        "PQClean clean (portable C)",
        "PQClean / optimized (not like for like)",
    ]);
    for op in ["keygen", "enc", "dec"] {
        t.row(vec![
            op.into(),
            wall_cell(w, &id(op, "optimized"))?,
            wall_cell(w, &id(op, "pqclean-clean"))?,
            wall_ratio(w, &id(op, "pqclean-clean"), &id(op, "optimized"))?,
        ]);
    }
    let _ = write!(page, "{}\n{}\n", t.md(), wall_on(w, b)?);
    let (ri, bi, oi, pi) = (
        g(&format!("{NK}poly_rq_inv_reference/reference"))?,
        g(&format!("{NK}poly_rq_inv_before/before"))?,
        g(&format!("{NK}poly_rq_inv_optimized/optimized"))?,
        g(&format!("{NK}poly_rq_inv_optimized_portable/portable"))?,
    );
    let headlines = vec![
        format!(
            "NTRU `poly_Rq_inv`: **{}** fewer instructions reference → optimized \
             (includes the change of `poly_Rq_mul` from schoolbook to AVX2 \
             Toom-4/Karatsuba, as the seed's own 105× does); **{}** before → optimized \
             isolates PR #5 (before = the constant-time divstep, not the almost-inverse \
             PR #5 replaced; same fast `poly_Rq_mul`); PCLMULQDQ + AVX2 by runtime \
             detection; the portable path (optimized-portable, baseline SSE2): {} fewer \
             than reference (portable too), {} fewer than before, which is not like \
             with like (before's `poly_Rq_mul` takes AVX2 when detected).",
            ratio(ri.ir, oi.ir),
            ratio(bi.ir, oi.ir),
            ratio(ri.ir, pi.ir),
            ratio(bi.ir, pi.ir)
        ),
        format!(
            "NTRU encapsulation, portable against portable: optimized-portable {} vs \
             PQClean clean {} instructions ({}); with PCLMULQDQ + AVX2 the optimized tier \
             takes {}. It took 440,881 before the shared sampler's sort was replaced (see \
             the NTRU page).",
            int(enc.1),
            int(enc.2),
            ratio(enc.1, enc.2),
            int(enc.0)
        ),
    ];
    let svg = svg::bars(
        "NTRU-HPS-2048-509: poly_R2_inv by an addition chain (PR #5)",
        &format!(
            "callgrind Ir, commit {}, bars scaled per operation",
            b.meta("commit")
        ),
        &groups,
    );
    Ok(Section {
        headlines,
        page,
        svg,
    })
}

// ---------------------------------------------------------------- Ed25519

fn ed(build: &str, f: &str, id: Option<&str>) -> String {
    match id {
        Some(i) => format!("ed25519_instructions::ed25519_{build}::{f}/{i}"),
        None => format!("ed25519_instructions::ed25519_{build}::{f}"),
    }
}

fn ed25519(c: &Ctx) -> R<Section> {
    let b = c.base;
    let g = |k: &str| b.get(k);
    let mut page = String::new();
    let seed = [
        ("keygen", "1,478,913 → 1,184,862, 1.248×"),
        ("sign", "1,589,657 → 1,298,934, 1.227×"),
        ("verify", "3,032,355 → 2,449,106, 1.239×"),
    ];
    let dalek = [
        ("keygen", ed("default", "dalek_keygen", None)),
        ("sign", ed("default", "dalek_sign", Some("dalek"))),
        ("verify", ed("default", "dalek_verify", Some("dalek"))),
    ];
    let mut groups = Vec::new();
    let mut sign = BTreeMap::new();
    for (build, title) in [
        (
            "default",
            "Default build (each fixed-width `mpih` primitive an out-of-line function: \
             libgcrypt's call structure, the build the seed's gain belongs to)",
        ),
        (
            "inline_mpih",
            "`--features inline-mpih` (every primitive inlined; everything else identical)",
        ),
    ] {
        let mut t = Table::new(&[
            "op",
            "before (reference)",
            "after (optimized)",
            "speedup",
            "seed (cycles, Ryzen 7 5800X)",
            &peer_version(c, "ed25519-dalek"),
            "after / dalek",
            "after heap",
        ]);
        for op in ["keygen", "sign", "verify", "mulm", "addm", "subm"] {
            let r = g(&ed(build, &format!("{op}_reference"), Some("reference")))?;
            let o = g(&ed(build, &format!("{op}_optimized"), Some("optimized")))?;
            let (d, dr) = match dalek.iter().find(|x| x.0 == op) {
                Some((_, k)) => {
                    let d = g(k)?;
                    (int(d.ir), ratio(o.ir, d.ir))
                }
                None => (String::new(), String::new()),
            };
            t.row(vec![
                if ["mulm", "addm", "subm"].contains(&op) {
                    format!("{op} (one call)")
                } else {
                    op.to_owned()
                },
                int(r.ir),
                int(o.ir),
                format!("**{}**", ratio(r.ir, o.ir)),
                if build == "default" {
                    seed.iter().find(|x| x.0 == op).map_or("", |x| x.1).into()
                } else {
                    String::new()
                },
                d,
                dr,
                heap(o),
            ]);
            if op == "sign" {
                sign.insert(build, (r.ir, o.ir));
            }
            if build == "default" && ["keygen", "sign", "verify"].contains(&op) {
                let mut bars = vec![
                    Bar {
                        label: "reference (default build)".into(),
                        value: r.ir as f64,
                        role: "before",
                    },
                    Bar {
                        label: "optimized (default build)".into(),
                        value: o.ir as f64,
                        role: "after",
                    },
                ];
                let ri = g(&ed(
                    "inline_mpih",
                    &format!("{op}_reference"),
                    Some("reference"),
                ))?;
                let oi = g(&ed(
                    "inline_mpih",
                    &format!("{op}_optimized"),
                    Some("optimized"),
                ))?;
                bars.push(Bar {
                    label: "reference (inline-mpih)".into(),
                    value: ri.ir as f64,
                    role: "before",
                });
                bars.push(Bar {
                    label: "optimized (inline-mpih)".into(),
                    value: oi.ir as f64,
                    role: "after",
                });
                if let Some((_, k)) = dalek.iter().find(|x| x.0 == op) {
                    bars.push(Bar {
                        label: "ed25519-dalek".into(),
                        value: g(k)?.ir as f64,
                        role: "peer",
                    });
                }
                groups.push(Group {
                    label: op.into(),
                    bars,
                });
            }
        }
        let _ = write!(page, "{title}, instructions:\n\n{}\n", t.md());
    }
    let w = c.wall;
    let mut t = Table::new(&[
        "op",
        "default: reference",
        "default: optimized",
        "default: speedup",
        "inline-mpih: reference",
        "inline-mpih: optimized",
        "inline-mpih: speedup",
        "ed25519-dalek",
    ]);
    for op in ["keygen", "sign", "verify"] {
        let id = |imp: &str, build: &str| format!("ed25519/op={op},impl={imp},build={build}");
        t.row(vec![
            op.into(),
            wall_cell(w, &id("reference", "default"))?,
            wall_cell(w, &id("optimized", "default"))?,
            wall_ratio(w, &id("reference", "default"), &id("optimized", "default"))?,
            wall_cell(w, &id("reference", "inline-mpih"))?,
            wall_cell(w, &id("optimized", "inline-mpih"))?,
            wall_ratio(
                w,
                &id("reference", "inline-mpih"),
                &id("optimized", "inline-mpih"),
            )?,
            wall_cell(w, &id("dalek", "default"))?,
        ]);
    }
    let _ = write!(
        page,
        "Wall-clock (criterion):\n\n{}\n{}\n",
        t.md(),
        wall_on(w, b)?
    );
    let ratio_of = |build: &str, op: &str| -> R<String> {
        Ok(ratio(
            g(&ed(build, &format!("{op}_reference"), Some("reference")))?.ir,
            g(&ed(build, &format!("{op}_optimized"), Some("optimized")))?.ir,
        ))
    };
    let dsign = g(&ed("default", "dalek_sign", Some("dalek")))?;
    let (_, so) = sign["default"];
    let headlines = vec![
        format!(
            "Ed25519 keygen / sign / verify, **default build (fixed-width `mpih` \
             primitives out of line, libgcrypt's call structure)**: **{} / {} / {}** \
             fewer instructions (seed 1.248× / 1.227× / 1.239× in cycles); wall-clock \
             sign {} (median and range of per-run ratios, {}).",
            ratio_of("default", "keygen")?,
            ratio_of("default", "sign")?,
            ratio_of("default", "verify")?,
            wall_ratio(
                w,
                "ed25519/op=sign,impl=reference,build=default",
                "ed25519/op=sign,impl=optimized,build=default"
            )?,
            runs(w)
        ),
        format!(
            "Ed25519 **fully inlined (`--features inline-mpih`)**: {} / {} / {} in \
             instructions — the patch gains nothing once LLVM sees through the \
             primitives; wall-clock sign {} ({}).",
            ratio_of("inline_mpih", "keygen")?,
            ratio_of("inline_mpih", "sign")?,
            ratio_of("inline_mpih", "verify")?,
            wall_ratio(
                w,
                "ed25519/op=sign,impl=reference,build=inline-mpih",
                "ed25519/op=sign,impl=optimized,build=inline-mpih"
            )?,
            runs(w)
        ),
        format!(
            "Ed25519 optimized sign (default build) takes **{}** the instructions of \
             {} ({} vs {}; dalek's portable 64-bit serial backend, no SIMD) \
             and {} its wall-clock time ({}; range in brackets: {} vs {}).",
            ratio(so, dsign.ir),
            peer_version(c, "ed25519-dalek"),
            int(so),
            int(dsign.ir),
            wall_ratio(
                w,
                "ed25519/op=sign,impl=optimized,build=default",
                "ed25519/op=sign,impl=dalek,build=default"
            )?,
            runs(w),
            wall_cell(w, "ed25519/op=sign,impl=optimized,build=default")?,
            wall_cell(w, "ed25519/op=sign,impl=dalek,build=default")?
        ),
    ];
    let svg = svg::bars(
        "Ed25519: ec_mulm_25519 with one mac-by-19 (instructions per operation)",
        &format!(
            "callgrind Ir, commit {}, bars scaled per operation; both builds",
            b.meta("commit")
        ),
        &groups,
    );
    Ok(Section {
        headlines,
        page,
        svg,
    })
}

// ---------------------------------------------------------------- history

/// The operations the history follows (optimized tier; Ed25519 default build) and
/// their baseline keys.
pub(crate) fn history_ops() -> Vec<(&'static str, String)> {
    vec![
        ("ml-kem-768/keygen", format!("{MK}keygen/ml_kem_768")),
        ("ml-kem-768/encaps", mk("encaps", "768", "optimized")),
        (
            "ml-kem-768/decaps",
            mk("decaps_parsed_key", "768", "optimized"),
        ),
        (
            "sntrup761/keygen",
            sn("keygen", "optimized", Some("chacha20")),
        ),
        (
            "sntrup761/encap",
            sn("encap", "optimized", Some("chacha20")),
        ),
        ("sntrup761/decap", sn("decap", "optimized", None)),
        (
            "ntru/poly_Rq_inv",
            format!("{NK}poly_rq_inv_optimized/optimized"),
        ),
        ("ntru/keygen", format!("{NO}keygen_optimized")),
        ("ntru/enc", format!("{NO}enc_optimized/fixed_seed")),
        ("ntru/dec", format!("{NO}dec_optimized/fixed_seed")),
        (
            "ed25519/keygen",
            ed("default", "keygen_optimized", Some("optimized")),
        ),
        (
            "ed25519/sign",
            ed("default", "sign_optimized", Some("optimized")),
        ),
        (
            "ed25519/verify",
            ed("default", "verify_optimized", Some("optimized")),
        ),
    ]
}

/// The history line of a baseline.
///
/// # Errors
/// A followed operation missing from the baseline.
pub(crate) fn history_line(b: &Baseline) -> R<HistoryLine> {
    let mut ir = BTreeMap::new();
    for (name, key) in history_ops() {
        ir.insert(name.to_owned(), b.get(&key)?.ir);
    }
    Ok(HistoryLine {
        commit: b.meta("commit").to_owned(),
        cpu: b.meta.get("cpu").cloned(),
        ir,
    })
}

/// The CPU of each history point, consecutive points with the same recorded CPU in
/// one row.
fn history_cpus(h: &[HistoryLine]) -> String {
    let mut rows: Vec<(Vec<&str>, &str)> = Vec::new();
    for l in h {
        let cpu = l.cpu.as_deref().unwrap_or("not recorded");
        match rows.last_mut() {
            Some((commits, last)) if *last == cpu => commits.push(&l.commit),
            _ => rows.push((vec![&l.commit], cpu)),
        }
    }
    let mut t = Table::new(&["commits", "CPU"]);
    for (commits, cpu) in rows {
        let list: Vec<String> = commits.iter().map(|c| format!("`{c}`")).collect();
        t.row(vec![list.join(", "), cpu.to_owned()]);
    }
    t.md()
}

fn history_svg(h: &[HistoryLine]) -> String {
    let commits: Vec<String> = h.iter().map(|l| l.commit.clone()).collect();
    let series: Vec<Series> = history_ops()
        .iter()
        .map(|(name, _)| Series {
            name: (*name).to_owned(),
            values: h
                .iter()
                .map(|l| l.ir.get(*name).map(|&v| v as f64))
                .collect(),
        })
        .collect();
    svg::history(
        "Instructions per operation over commits (optimized tier)",
        &commits,
        &series,
    )
}

// ---------------------------------------------------------------- assembly

/// Generates everything.
///
/// # Errors
/// Any number a table needs that the inputs do not have.
pub(crate) fn generate(c: &Ctx) -> R<Output> {
    let mut out = Output::default();
    let schemes = [
        ("ML-KEM-512/768/1024", "mlkem", mlkem(c)?),
        ("sntrup761", "sntrup761", sntrup761(c)?),
        ("NTRU-HPS-2048-509", "ntruhps2048509", ntru(c)?),
        ("Ed25519", "ed25519", ed25519(c)?),
    ];
    let mut results = String::from(
        "# Results\n\n\
         <!-- Generated by `report docs` from benches/baselines/ (instructions.txt, \
         wallclock.txt) and benches/history.jsonl: do not edit by hand. Regenerate with \
         `bash benches/scripts/gate.sh --update` (measures again) or \
         `bash benches/scripts/gate.sh --docs` (from the committed files only). -->\n\n\
         Speed claims come from benchmarks only: gungraun (Callgrind and DHAT) for \
         instructions and heap, criterion for wall-clock. Every table on this page and \
         in the scheme pages' Results sections is generated from the committed \
         baseline, which `.ci/bench.sh` re-measures on every run and gates (5 % either \
         way: instructions, heap bytes and blocks, a rise as a regression and a fall as \
         a stale baseline; any allocation where the baseline has none). CI also regenerates these pages and fails when the committed ones \
         differ.\n\n",
    );
    let _ = write!(
        results,
        "{}\n\n{}\n\n## Headlines, with what each depends on\n\n",
        measured_on(c.base),
        wall_on(c.wall, c.base)?
    );
    for (title, _, s) in &schemes {
        let _ = writeln!(results, "{title}:\n");
        for h in &s.headlines {
            // Each instruction figure carries its conditions on its own line.
            let on = if h.contains("gungraun Ir") {
                format!(" [instructions: commit `{}`]", c.base.meta("commit"))
            } else if h.contains("instructions") {
                format!(
                    " [instructions: gungraun Ir, commit `{}`, profile `bench`, no \
                     `target-cpu`, SIMD by runtime detection]",
                    c.base.meta("commit")
                )
            } else {
                String::new()
            };
            let _ = writeln!(results, "* {h}{on}");
        }
        results.push('\n');
    }
    for (title, file, s) in &schemes {
        let _ = write!(
            results,
            "## {title}\n\n![{title} instructions]({file}.svg)\n\n{}\n\
             Details and the reading of these numbers: [{file}.md]({file}.md#results).\n\n",
            s.page
        );
        out.files.insert(format!("{file}.svg"), s.svg.clone());
        out.sections.insert(
            (format!("{file}.md"), "results".to_owned()),
            format!(
                "{}\n\n![{title} instructions]({file}.svg)\n\n{}",
                measured_on(c.base),
                s.page
            ),
        );
    }
    let _ = write!(
        results,
        "## History\n\n![history](history.svg)\n\n\
         One line per measured commit in `benches/history.jsonl` (the optimized tier's \
         instructions per operation; Ed25519 in the default build), appended by \
         `gate.sh --update`. The first line holds ML-KEM only: it is the earlier \
         ML-KEM-only baseline (commit `3726b9d`).\n\n\
         Instruction counts can differ between CPUs with no change to the code \
         (library routines chosen at run time by CPU features beyond the AVX2 and \
         PCLMULQDQ recorded here), so a step between two points measured on \
         different CPUs is not all the code's. The CPU of each point, as the \
         baseline records it (the model name `/proc/cpuinfo` gives, which may cover \
         several chips, and those two features; `cpu` in \
         the history; the lines written before it was recorded were filled in from \
         the `@cpu` of the baseline each was saved with, where it had one):\n\n{}\n",
        history_cpus(c.history)
    );
    out.files.insert("RESULTS.md".into(), results);
    out.files
        .insert("history.svg".into(), history_svg(c.history));
    Ok(out)
}

/// Replaces the text between `<!-- generated:begin NAME -->` and
/// `<!-- generated:end NAME -->` in `page`.
///
/// # Errors
/// The markers are missing.
pub(crate) fn splice(page: &str, name: &str, body: &str) -> R<String> {
    let begin = format!("<!-- generated:begin {name} (report docs; do not edit) -->\n");
    let end = format!("<!-- generated:end {name} -->");
    let i = page
        .find(&begin)
        .ok_or(format!("no `{}` marker", begin.trim_end()))?;
    let j = page[i..].find(&end).ok_or(format!("no `{end}` marker"))? + i;
    Ok(format!("{}{begin}{body}{}", &page[..i], &page[j..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splice_replaces_only_between_the_markers() {
        let page = "a\n<!-- generated:begin results (report docs; do not edit) -->\nold\n<!-- generated:end results -->\nb\n";
        let s = splice(page, "results", "new\n").unwrap();
        assert_eq!(
            s,
            "a\n<!-- generated:begin results (report docs; do not edit) -->\nnew\n<!-- generated:end results -->\nb\n"
        );
        assert_eq!(splice(&s, "results", "new\n").unwrap(), s);
        assert!(splice("no markers", "results", "x").is_err());
    }

    #[test]
    fn numbers_are_formatted_for_reading() {
        assert_eq!(int(1_234_567), "1,234,567");
        assert_eq!(int(999), "999");
        assert_eq!(ratio(1230, 1000), "1.23×");
    }

    #[test]
    fn run_spread_is_largest_over_smallest_per_benchmark() {
        let w = WallClock::parse("a = 100 110 105\nb = 200 200 200\nc = 50 51 50\n").unwrap();
        let (typical, largest) = run_spread(&w).unwrap();
        assert!((typical - 2.0).abs() < 1e-9, "median {typical}");
        assert!((largest - 10.0).abs() < 1e-9, "largest {largest}");
    }

    #[test]
    fn run_spread_refuses_a_file_without_runs() {
        let w = WallClock::parse("@runs 3\n").unwrap();
        assert!(run_spread(&w).is_err());
    }
}
