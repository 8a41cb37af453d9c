//! The library knows nothing of the command line: no clap and no anyhow outside the binary
//! (`src/main.rs`, `src/cli/`). The crate depends on both for the binary's sake; this test is
//! the guard that keeps them out of the library.

use crate::common::rust_files;

use std::path::Path;

/// Whether `word` occurs in `line` as a whole identifier (not inside a longer one).
fn has_token(line: &str, word: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    line.match_indices(word).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        let after = line[i + word.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

#[test]
fn token_scanner_finds_whole_identifiers_only() {
    assert!(has_token("use anyhow::Context;", "anyhow"));
    assert!(has_token("#[derive(clap::ValueEnum)]", "clap"));
    assert!(has_token("-> anyhow::Result<()>", "anyhow"));
    assert!(!has_token("let clapper = 1;", "clap"));
    assert!(!has_token("fn no_anyhow_here() {}", "anyhow"));
}

#[test]
fn library_uses_neither_clap_nor_anyhow() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let binary = [src.join("main.rs"), src.join("cli")];
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let library: Vec<_> = files
        .iter()
        .filter(|f| !binary.iter().any(|b| f.starts_with(b)))
        .collect();
    assert!(
        library.len() > 20,
        "the scan found only {} library files under {}",
        library.len(),
        src.display()
    );
    let mut found = Vec::new();
    for f in library {
        let text = std::fs::read_to_string(f).unwrap();
        for (n, line) in text.lines().enumerate() {
            for word in ["anyhow", "clap"] {
                if has_token(line, word) {
                    found.push(format!(
                        "{}:{}: {word}: {}",
                        f.strip_prefix(&src).unwrap().display(),
                        n + 1,
                        line.trim()
                    ));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "the library must not use clap or anyhow (clap types belong in src/cli/, anyhow in \
         src/main.rs; the library returns typed errors):\n{}",
        found.join("\n")
    );
}
