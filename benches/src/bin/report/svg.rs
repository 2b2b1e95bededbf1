//! Small, deterministic SVG charts written by hand (no fonts, no timestamps): a bar
//! chart per scheme and the history chart.

use std::fmt::Write as _;

/// One bar.
pub(crate) struct Bar {
    /// Implementation label.
    pub(crate) label: String,
    /// Value (instructions).
    pub(crate) value: f64,
    /// Role, which picks the colour: `before`, `after` or `peer`.
    pub(crate) role: &'static str,
}

/// One group of bars (an operation).
pub(crate) struct Group {
    /// Operation label.
    pub(crate) label: String,
    /// Its bars, drawn top to bottom.
    pub(crate) bars: Vec<Bar>,
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn colour(role: &str) -> &'static str {
    match role {
        "before" => "#9e9e9e",
        "after" => "#1f6fb4",
        _ => "#e08a1e",
    }
}

/// Instruction count in a short form: 1.23M, 45.6k, 789.
pub(crate) fn short(v: f64) -> String {
    if v >= 1e6 {
        format!("{:.2}M", v / 1e6)
    } else if v >= 1e4 {
        format!("{:.1}k", v / 1e3)
    } else {
        format!("{v:.0}")
    }
}

/// A horizontal bar chart, each group scaled to its own largest bar (operations of
/// very different cost share one picture), the count written beside each bar.
pub(crate) fn bars(title: &str, subtitle: &str, groups: &[Group]) -> String {
    let (left, width, bar_h, gap): (f64, f64, f64, f64) = (230.0, 420.0, 14.0, 10.0);
    let rows: usize = groups.iter().map(|g| g.bars.len()).sum();
    let height = 70.0 + rows as f64 * (bar_h + 3.0) + groups.len() as f64 * (gap + 16.0) + 30.0;
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"760\" height=\"{height:.0}\" \
         viewBox=\"0 0 760 {height:.0}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"760\" height=\"{height:.0}\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"22\" font-size=\"16\" font-weight=\"bold\">{}</text>\n\
         <text x=\"10\" y=\"40\" fill=\"#555\">{}</text>\n",
        esc(title),
        esc(subtitle)
    );
    let mut y = 60.0;
    for g in groups {
        let max = g.bars.iter().map(|b| b.value).fold(0.0, f64::max);
        let _ = writeln!(
            s,
            "<text x=\"10\" y=\"{:.0}\" font-weight=\"bold\">{}</text>",
            y + 12.0,
            esc(&g.label)
        );
        y += 16.0;
        for b in &g.bars {
            let w = if max > 0.0 {
                b.value / max * width
            } else {
                0.0
            };
            let _ = writeln!(
                s,
                "<text x=\"{:.0}\" y=\"{:.0}\" text-anchor=\"end\">{}</text>\
                 <rect x=\"{left:.0}\" y=\"{y:.0}\" width=\"{w:.1}\" height=\"{bar_h:.0}\" fill=\"{}\"/>\
                 <text x=\"{:.1}\" y=\"{:.0}\">{}</text>",
                left - 6.0,
                y + 11.0,
                esc(&b.label),
                colour(b.role),
                left + w + 4.0,
                y + 11.0,
                short(b.value)
            );
            y += bar_h + 3.0;
        }
        y += gap;
    }
    let _ = write!(
        s,
        "<rect x=\"10\" y=\"{:.0}\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"26\" y=\"{:.0}\">before (reference)</text>\
         <rect x=\"170\" y=\"{:.0}\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"186\" y=\"{:.0}\">after (optimized)</text>\
         <rect x=\"320\" y=\"{:.0}\" width=\"12\" height=\"12\" fill=\"{}\"/><text x=\"336\" y=\"{:.0}\">other implementation</text>\n</svg>\n",
        y,
        colour("before"),
        y + 10.0,
        y,
        colour("after"),
        y + 10.0,
        y,
        colour("peer"),
        y + 10.0
    );
    s
}

const PALETTE: [&str; 14] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
    "#bcbd22", "#17becf", "#000000", "#aec7e8", "#98df8a", "#ff9896",
];

/// One line of the history chart: a name and its value per commit (None where the
/// commit did not measure it).
pub(crate) struct Series {
    /// Operation name.
    pub(crate) name: String,
    /// One value per commit.
    pub(crate) values: Vec<Option<f64>>,
}

/// Instructions per operation over commits, each series in percent of its first
/// measured value, so every operation fits one axis and a regression stands out.
pub(crate) fn history(title: &str, commits: &[String], series: &[Series]) -> String {
    let (left, top, w, h): (f64, f64, f64, f64) = (60.0, 50.0, 440.0, 260.0);
    let legend_h = series.len() as f64 * 16.0;
    let height = (top + h + 100.0).max(top + legend_h + 20.0);
    let rel: Vec<Vec<Option<f64>>> = series
        .iter()
        .map(|s| {
            let first = s.values.iter().flatten().next().copied();
            s.values
                .iter()
                .map(|v| match (v, first) {
                    (Some(v), Some(f)) if f > 0.0 => Some(v / f * 100.0),
                    _ => None,
                })
                .collect()
        })
        .collect();
    let all = rel.iter().flatten().flatten().copied();
    let (lo, hi) = all.fold((100.0f64, 100.0f64), |(a, b), v| (a.min(v), b.max(v)));
    let (lo, hi) = ((lo - 5.0).floor(), (hi + 5.0).ceil());
    let n = commits.len().max(1);
    let x = |i: usize| {
        if n == 1 {
            left + w / 2.0
        } else {
            left + w * i as f64 / (n - 1) as f64
        }
    };
    let y = |v: f64| top + h - (v - lo) / (hi - lo) * h;
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"760\" height=\"{height:.0}\" \
         viewBox=\"0 0 760 {height:.0}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <rect width=\"760\" height=\"{height:.0}\" fill=\"white\"/>\n\
         <text x=\"10\" y=\"22\" font-size=\"16\" font-weight=\"bold\">{}</text>\n\
         <text x=\"10\" y=\"40\" fill=\"#555\">instructions in % of the first measurement of each operation</text>\n\
         <rect x=\"{left}\" y=\"{top}\" width=\"{w}\" height=\"{h}\" fill=\"none\" stroke=\"#888\"/>\n",
        esc(title)
    );
    for t in [lo, 100.0, hi] {
        let _ = writeln!(
            s,
            "<line x1=\"{left}\" x2=\"{:.0}\" y1=\"{:.1}\" y2=\"{:.1}\" stroke=\"#ddd\"/>\
             <text x=\"{:.0}\" y=\"{:.1}\" text-anchor=\"end\">{t:.0}%</text>",
            left + w,
            y(t),
            y(t),
            left - 4.0,
            y(t) + 4.0
        );
    }
    for (i, c) in commits.iter().enumerate() {
        let _ = writeln!(
            s,
            "<text x=\"{:.1}\" y=\"{:.0}\" text-anchor=\"end\" transform=\"rotate(-40 {:.1} {:.0})\">{}</text>",
            x(i),
            top + h + 14.0,
            x(i),
            top + h + 14.0,
            esc(c)
        );
    }
    for (k, (ser, vals)) in series.iter().zip(&rel).enumerate() {
        let col = PALETTE[k % PALETTE.len()];
        let pts: Vec<String> = vals
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.map(|v| format!("{:.1},{:.1}", x(i), y(v))))
            .collect();
        if pts.len() > 1 {
            let _ = writeln!(
                s,
                "<polyline fill=\"none\" stroke=\"{col}\" stroke-width=\"1.5\" points=\"{}\"/>",
                pts.join(" ")
            );
        }
        for p in &pts {
            let (px, py) = p.split_once(',').unwrap_or(("0", "0"));
            let _ = writeln!(
                s,
                "<circle cx=\"{px}\" cy=\"{py}\" r=\"2.5\" fill=\"{col}\"/>"
            );
        }
        let ly = top + 6.0 + k as f64 * 16.0;
        let _ = writeln!(
            s,
            "<rect x=\"520\" y=\"{ly:.0}\" width=\"10\" height=\"10\" fill=\"{col}\"/>\
             <text x=\"535\" y=\"{:.0}\">{}</text>",
            ly + 9.0,
            esc(&ser.name)
        );
    }
    s.push_str("</svg>\n");
    s
}
