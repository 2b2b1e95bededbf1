//! The measurements `report` reads and writes: gungraun's JSON lines, the committed
//! baseline, the wall-clock runs and the history.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::Value;

/// One benchmark's numbers: callgrind instructions and DHAT heap use (total bytes and
/// blocks allocated inside the measured function).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Measure {
    /// Callgrind `Ir`.
    pub(crate) ir: u64,
    /// DHAT total bytes allocated.
    pub(crate) heap_bytes: u64,
    /// DHAT total blocks allocated.
    pub(crate) heap_blocks: u64,
}

/// The new value of `name` in a gungraun metrics object (`{"Ir": {"values": {"new": n}}}`).
fn metric(metrics: &Value, name: &str) -> Option<u64> {
    let v = &metrics[name]["values"]["new"];
    v.as_u64().or_else(|| v.as_f64().map(|f| f as u64))
}

/// Every benchmark in gungraun's JSON-lines output: `<module path>/<id>` -> numbers.
///
/// # Errors
/// A benchmark without a callgrind `Ir` or without DHAT totals (the tools did not
/// run): the gate must not pass on numbers that were never taken.
pub(crate) fn parse_gungraun(text: &str) -> Result<BTreeMap<String, Measure>, String> {
    let mut out = BTreeMap::new();
    for line in text.lines().filter(|l| l.starts_with('{')) {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("gungraun JSON: {e}"))?;
        let path = v["module_path"].as_str().unwrap_or("?");
        let key = match v["id"].as_str() {
            Some(id) if !id.is_empty() => format!("{path}/{id}"),
            _ => path.to_owned(),
        };
        let mut m = Measure::default();
        let (mut have_ir, mut have_dhat) = (false, false);
        for p in v["profiles"].as_array().into_iter().flatten() {
            let tool = p["tool"].as_str().unwrap_or("");
            let metrics = &p["data"]["total"]["metrics"];
            match tool.to_ascii_lowercase().as_str() {
                "callgrind" => {
                    m.ir = metric(metrics, "Ir").ok_or(format!("{key}: no Ir"))?;
                    have_ir = true;
                }
                "dhat" => {
                    m.heap_bytes =
                        metric(metrics, "TotalBytes").ok_or(format!("{key}: no DHAT bytes"))?;
                    m.heap_blocks =
                        metric(metrics, "TotalBlocks").ok_or(format!("{key}: no DHAT blocks"))?;
                    have_dhat = true;
                }
                _ => {}
            }
        }
        if !have_ir || !have_dhat {
            return Err(format!(
                "{key}: gungraun reported {} (callgrind and DHAT both needed)",
                match (have_ir, have_dhat) {
                    (false, false) => "neither tool",
                    (true, false) => "no DHAT run",
                    _ => "no callgrind run",
                }
            ));
        }
        if out.insert(key.clone(), m).is_some() {
            return Err(format!("{key}: measured twice"));
        }
    }
    Ok(out)
}

/// The committed baseline: where it was measured, and every benchmark's numbers.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Baseline {
    /// `@name value` header lines: commit, rustc, cpu, valgrind, gungraun.
    pub(crate) meta: BTreeMap<String, String>,
    /// Benchmark key -> numbers.
    pub(crate) entries: BTreeMap<String, Measure>,
}

const BASELINE_HEADER: &str = "\
# Instruction counts (callgrind Ir) and heap use (DHAT: bytes and blocks allocated) of
# every gungraun benchmark, one line each: the regression baseline of .ci/bench.sh
# (5 % limit) and the only source of the generated tables and charts in docs/.
# Regenerate everything with: bash benches/scripts/gate.sh --update
";

impl Baseline {
    /// Parses the file format written by [`Baseline::to_text`].
    ///
    /// # Errors
    /// An unreadable line.
    pub(crate) fn parse(text: &str) -> Result<Self, String> {
        let mut b = Baseline::default();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(rest) = line.strip_prefix('@') {
                let (k, v) = rest.split_once(' ').unwrap_or((rest, ""));
                b.meta.insert(k.to_owned(), v.trim().to_owned());
                continue;
            }
            let bad = || format!("baseline line {}: unreadable: {line}", n + 1);
            let mut parts = line.split_whitespace();
            let key = parts.next().ok_or_else(bad)?;
            let mut m = Measure::default();
            let mut seen = 0;
            for p in parts {
                let (k, v) = p.split_once('=').ok_or_else(bad)?;
                let v: u64 = v.parse().map_err(|_| bad())?;
                match k {
                    "ir" => m.ir = v,
                    "heap_bytes" => m.heap_bytes = v,
                    "heap_blocks" => m.heap_blocks = v,
                    _ => return Err(bad()),
                }
                seen += 1;
            }
            if seen != 3 {
                return Err(bad());
            }
            b.entries.insert(key.to_owned(), m);
        }
        Ok(b)
    }

    /// The file text: header, `@` lines, one line per benchmark (sorted).
    pub(crate) fn to_text(&self) -> String {
        let mut s = String::from(BASELINE_HEADER);
        for (k, v) in &self.meta {
            let _ = writeln!(s, "@{k} {v}");
        }
        for (k, m) in &self.entries {
            let _ = writeln!(
                s,
                "{k} ir={} heap_bytes={} heap_blocks={}",
                m.ir, m.heap_bytes, m.heap_blocks
            );
        }
        s
    }

    /// The numbers of `key`.
    ///
    /// # Errors
    /// `key` is not in the baseline: a generated table must not show a gap silently.
    pub(crate) fn get(&self, key: &str) -> Result<Measure, String> {
        self.entries
            .get(key)
            .copied()
            .ok_or_else(|| format!("the baseline has no entry {key}"))
    }

    /// A header value, or "unknown".
    pub(crate) fn meta(&self, k: &str) -> &str {
        self.meta.get(k).map_or("unknown", String::as_str)
    }
}

/// One gate verdict line per metric that moved, and the failures.
pub(crate) struct GateResult {
    /// Human-readable lines, one per benchmark.
    pub(crate) lines: Vec<String>,
    /// What failed.
    pub(crate) failures: Vec<String>,
}

/// Compares measured numbers with the baseline. A metric fails when it exceeds its
/// baseline by more than `limit_pct` percent; a heap metric whose baseline is 0 fails
/// on any allocation. A metric more than `limit_pct` percent *below* its baseline
/// fails too: the pages generated from the baseline would print stale figures and
/// ratios. Every baselined benchmark must be measured and every measured one must be
/// in the baseline.
pub(crate) fn gate(base: &Baseline, now: &BTreeMap<String, Measure>, limit_pct: f64) -> GateResult {
    let mut r = GateResult {
        lines: Vec::new(),
        failures: Vec::new(),
    };
    for (k, b) in &base.entries {
        let Some(n) = now.get(k) else {
            r.failures
                .push(format!("{k}: in the baseline but not measured"));
            continue;
        };
        let mut verdicts = Vec::new();
        for (what, bv, nv) in [
            ("ir", b.ir, n.ir),
            ("heap_bytes", b.heap_bytes, n.heap_bytes),
            ("heap_blocks", b.heap_blocks, n.heap_blocks),
        ] {
            let change = if bv == 0 {
                if nv == 0 { 0.0 } else { f64::INFINITY }
            } else {
                (nv as f64 - bv as f64) / bv as f64 * 100.0
            };
            if change > limit_pct {
                r.failures.push(format!(
                    "{k}: {what} {nv}, {change:+.2}% over the baseline {bv} (limit {limit_pct}%)"
                ));
                verdicts.push(format!("{what} {bv} -> {nv} REGRESSION"));
            } else if change < -limit_pct {
                r.failures.push(format!(
                    "{k}: {what} {nv}, {change:+.2}% under the baseline {bv} (limit {limit_pct}%): \
                     the published figures are stale (run gate.sh --update)"
                ));
                verdicts.push(format!("{what} {bv} -> {nv} STALE"));
            } else if what == "ir" {
                verdicts.push(format!("ir {bv} -> {nv} ({change:+.2}%)"));
            } else if nv != bv {
                verdicts.push(format!("{what} {bv} -> {nv} ({change:+.2}%)"));
            }
        }
        r.lines.push(format!("{k}: {}", verdicts.join(", ")));
    }
    for k in now.keys().filter(|k| !base.entries.contains_key(*k)) {
        r.failures.push(format!(
            "{k}: measured but not in the baseline (run gate.sh --update)"
        ));
    }
    r
}

/// Wall-clock runs: criterion id -> the median of each run, in nanoseconds.
#[derive(Clone, Debug, Default)]
pub(crate) struct WallClock {
    /// `@` header lines.
    pub(crate) meta: BTreeMap<String, String>,
    /// id -> per-run medians (ns), in run order.
    pub(crate) runs: BTreeMap<String, Vec<f64>>,
}

impl WallClock {
    /// The commit the wall-clock runs were measured at (`@ commit`), or "unknown".
    pub(crate) fn commit(&self) -> &str {
        self.meta.get("commit").map_or("unknown", String::as_str)
    }

    /// Parses `id = r1 r2 r3` lines (and `@` header lines).
    ///
    /// # Errors
    /// An unreadable line.
    pub(crate) fn parse(text: &str) -> Result<Self, String> {
        let mut w = WallClock::default();
        for line in text.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(rest) = line.strip_prefix('@') {
                let (k, v) = rest.split_once(' ').unwrap_or((rest, ""));
                w.meta.insert(k.to_owned(), v.trim().to_owned());
                continue;
            }
            let (id, vals) = line
                .split_once(" = ")
                .ok_or(format!("wall-clock line unreadable: {line}"))?;
            let vals: Result<Vec<f64>, _> = vals.split_whitespace().map(str::parse).collect();
            let vals = vals.map_err(|e| format!("wall-clock line {line}: {e}"))?;
            w.runs.insert(id.trim().to_owned(), vals);
        }
        Ok(w)
    }

    /// The per-run medians of `id`.
    ///
    /// # Errors
    /// `id` was not measured, or fewer than three runs were.
    pub(crate) fn get(&self, id: &str) -> Result<&[f64], String> {
        let v = self
            .runs
            .get(id)
            .ok_or_else(|| format!("no wall-clock runs for {id}"))?;
        if v.len() < 3 {
            return Err(format!(
                "{id}: {} wall-clock runs, at least 3 needed",
                v.len()
            ));
        }
        Ok(v)
    }
}

/// The median of `v` (mean of the middle two for an even length).
pub(crate) fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let n = s.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    }
}

/// Every criterion `new/estimates.json` median under `dir`, by full id (ns).
pub(crate) fn criterion_medians(dir: &std::path::Path, out: &mut BTreeMap<String, f64>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for p in entries.into_iter().filter(|p| p.is_dir()) {
        if p.file_name().is_some_and(|n| n == "new") {
            let bench = std::fs::read_to_string(p.join("benchmark.json"));
            let est = std::fs::read_to_string(p.join("estimates.json"));
            if let (Ok(b), Ok(e)) = (bench, est) {
                let b: Value = serde_json::from_str(&b).unwrap_or(Value::Null);
                let e: Value = serde_json::from_str(&e).unwrap_or(Value::Null);
                if let (Some(id), Some(m)) = (
                    b["full_id"].as_str(),
                    e["median"]["point_estimate"].as_f64(),
                ) {
                    out.insert(id.to_owned(), m);
                }
            }
        } else {
            criterion_medians(&p, out);
        }
    }
}

/// One history line: a commit, the CPU it was measured on and its instruction counts
/// per operation.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct HistoryLine {
    /// Short commit hash the baseline was measured on.
    pub(crate) commit: String,
    /// The baseline's `@cpu` (the CPU model and the SIMD it reports); `None` for the
    /// lines written before the history recorded it.
    pub(crate) cpu: Option<String>,
    /// Operation name -> instructions.
    pub(crate) ir: BTreeMap<String, u64>,
}

/// Parses the JSON-lines history.
///
/// # Errors
/// A line that is not `{"commit": "...", "ir": {...}}` (with an optional
/// `"cpu": "..."`).
pub(crate) fn parse_history(text: &str) -> Result<Vec<HistoryLine>, String> {
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).map_err(|e| format!("history: {e}"))?;
        let commit = v["commit"]
            .as_str()
            .ok_or("history line without commit")?
            .to_owned();
        let ir = v["ir"]
            .as_object()
            .ok_or("history line without ir")?
            .iter()
            .map(|(k, x)| Ok((k.clone(), x.as_u64().ok_or("history count not a number")?)))
            .collect::<Result<BTreeMap<_, _>, &str>>()?;
        let cpu = match &v["cpu"] {
            Value::Null => None,
            c => Some(c.as_str().ok_or("history cpu not a string")?.to_owned()),
        };
        out.push(HistoryLine { commit, cpu, ir });
    }
    Ok(out)
}

/// The JSON-lines text of a history (keys sorted, one line per commit).
pub(crate) fn history_text(h: &[HistoryLine]) -> String {
    let mut s = String::new();
    for l in h {
        let ir: serde_json::Map<String, Value> =
            l.ir.iter()
                .map(|(k, v)| (k.clone(), Value::from(*v)))
                .collect();
        let mut obj = serde_json::Map::new();
        obj.insert("commit".into(), Value::from(l.commit.clone()));
        if let Some(cpu) = &l.cpu {
            obj.insert("cpu".into(), Value::from(cpu.clone()));
        }
        obj.insert("ir".into(), Value::Object(ir));
        s.push_str(&Value::Object(obj).to_string());
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base() -> Baseline {
        let mut b = Baseline::default();
        b.meta.insert("commit".into(), "abc1234".into());
        b.entries.insert(
            "a::b::c/x".into(),
            Measure {
                ir: 1000,
                heap_bytes: 0,
                heap_blocks: 0,
            },
        );
        b.entries.insert(
            "a::b::d".into(),
            Measure {
                ir: 2000,
                heap_bytes: 100,
                heap_blocks: 2,
            },
        );
        b
    }

    #[test]
    fn baseline_round_trips() {
        let b = base();
        assert_eq!(Baseline::parse(&b.to_text()).unwrap(), b);
        assert!(Baseline::parse("k ir=1 heap_bytes=2\n").is_err());
        assert!(Baseline::parse("k = 5\n").is_err());
    }

    #[test]
    fn gate_passes_within_the_limit_and_fails_beyond_it() {
        let b = base();
        let mut now = b.entries.clone();
        now.get_mut("a::b::c/x").unwrap().ir = 1050;
        assert!(gate(&b, &now, 5.0).failures.is_empty());
        now.get_mut("a::b::c/x").unwrap().ir = 1051;
        let r = gate(&b, &now, 5.0);
        assert_eq!(r.failures.len(), 1);
        assert!(r.failures[0].starts_with("a::b::c/x: ir 1051"));
        // Below the baseline: within the limit passes, beyond it the baseline is stale.
        now.get_mut("a::b::c/x").unwrap().ir = 950;
        assert!(gate(&b, &now, 5.0).failures.is_empty());
        now.get_mut("a::b::c/x").unwrap().ir = 949;
        let r = gate(&b, &now, 5.0);
        assert_eq!(r.failures.len(), 1);
        assert!(
            r.failures[0].contains("under the baseline 1000"),
            "{:?}",
            r.failures
        );
    }

    #[test]
    fn gate_fails_on_any_allocation_where_there_was_none() {
        let b = base();
        let mut now = b.entries.clone();
        now.get_mut("a::b::c/x").unwrap().heap_blocks = 1;
        now.get_mut("a::b::c/x").unwrap().heap_bytes = 8;
        let r = gate(&b, &now, 5.0);
        assert_eq!(r.failures.len(), 2, "{:?}", r.failures);
        now.get_mut("a::b::d").unwrap().heap_blocks = 3;
        assert_eq!(gate(&b, &now, 5.0).failures.len(), 3);
    }

    #[test]
    fn gate_fails_when_the_sets_differ() {
        let b = base();
        let mut now = b.entries.clone();
        now.remove("a::b::d");
        now.insert("a::b::e".into(), Measure::default());
        let f = gate(&b, &now, 5.0).failures;
        assert!(
            f.iter()
                .any(|x| x.contains("a::b::d: in the baseline but not measured"))
        );
        assert!(
            f.iter()
                .any(|x| x.contains("a::b::e: measured but not in the baseline"))
        );
    }

    #[test]
    fn gungraun_output_needs_both_tools() {
        let callgrind =
            r#"{"tool":"Callgrind","data":{"total":{"metrics":{"Ir":{"values":{"new":42}}}}}}"#;
        let dhat = r#"{"tool":"DHAT","data":{"total":{"metrics":{"TotalBytes":{"values":{"new":8}},"TotalBlocks":{"values":{"new":1}}}}}}"#;
        let line = |p: &str| format!(r#"{{"module_path":"m::g::f","id":"i","profiles":[{p}]}}"#);
        let both = parse_gungraun(&line(&format!("{callgrind},{dhat}"))).unwrap();
        assert_eq!(
            both["m::g::f/i"],
            Measure {
                ir: 42,
                heap_bytes: 8,
                heap_blocks: 1
            }
        );
        assert!(parse_gungraun(&line(callgrind)).is_err());
        assert!(parse_gungraun(&line(dhat)).is_err());
    }

    #[test]
    fn history_round_trips_one_line_per_commit() {
        let mut h = vec![HistoryLine {
            commit: "abc1234".into(),
            cpu: None,
            ir: [("x/y".to_owned(), 7)].into_iter().collect(),
        }];
        let t = history_text(&h);
        assert_eq!(t, "{\"commit\":\"abc1234\",\"ir\":{\"x/y\":7}}\n");
        assert_eq!(parse_history(&t).unwrap(), h);
        h.push(HistoryLine {
            commit: "def5678".into(),
            cpu: Some("Some CPU (AVX2)".into()),
            ir: [("x/y".to_owned(), 8)].into_iter().collect(),
        });
        let t = history_text(&h);
        assert!(t.ends_with(
            "{\"commit\":\"def5678\",\"cpu\":\"Some CPU (AVX2)\",\"ir\":{\"x/y\":8}}\n"
        ));
        assert_eq!(parse_history(&t).unwrap(), h);
        assert!(parse_history("{\"commit\":\"a\",\"cpu\":3,\"ir\":{}}").is_err());
    }
}
