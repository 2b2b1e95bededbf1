//! Every planted bug listed in `reference::plant::ALL` is planted somewhere in the
//! shipped code (`plant::active("<name>")`), exactly once per name, and its
//! description says where.

use std::path::Path;

fn sources(dir: &Path, out: &mut Vec<(String, String)>) {
    for e in std::fs::read_dir(dir).expect("readable source directory") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().and_then(|e| e.to_str()) == Some("rs") {
            let text = std::fs::read_to_string(&p).expect("readable source");
            // Without whitespace, so a call rustfmt split over lines still matches.
            let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
            out.push((p.display().to_string(), text));
        }
    }
}

#[test]
fn every_listed_plant_is_planted() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    for d in ["reference/src", "optimized/src", "equivalence/src"] {
        sources(&root.join(d), &mut files);
    }
    let all = reference::plant::ALL;
    assert!(all.iter().filter(|p| p.caught_by == "zoo").count() >= 15);
    for p in all {
        let site = format!("active(\"{}\"", p.name);
        let hits: Vec<&str> = files
            .iter()
            .filter(|(name, text)| !name.ends_with("plant.rs") && text.contains(&site))
            .map(|(name, _)| name.as_str())
            .collect();
        assert!(!hits.is_empty(), "{} is listed but planted nowhere", p.name);
        assert_eq!(
            all.iter().filter(|q| q.name == p.name).count(),
            1,
            "{} is listed twice",
            p.name
        );
    }
}
