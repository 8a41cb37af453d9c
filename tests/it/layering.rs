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

/// The library's modules from the bottom up, in the layers ARCHITECTURE.md draws: a module may
/// use only itself and the modules before it (so no two modules use each other, and no cycle
/// runs through several). The games share one place: none uses another. Above them all, the
/// binary (`src/main.rs`, `src/cli/`), which is not scanned: it may use anything.
const ORDER: &[&[&str]] = &[
    // Foundations: numbers, streams, statistics, progress, files, cards.
    &["numparse"],
    &["rng"],
    &["stats"],
    &["progress"],
    &["door"],
    &["specfile"],
    &["cards"],
    &["shuffle"],
    &["logfile"],
    // The engine, shard files and reports.
    &["engine"],
    &["shard"],
    &["sums"],
    &["histogram"],
    &["report"],
    &["audit"],
    // The command layer: jobs, then the commands that know no game.
    &["job"],
    &["monitor"],
    &["risk"],
    &["game"],
    &["compare"],
    &["check"],
    &["merge"],
    // Side bets as data (paytables, events, event tables), below the games that deal them.
    &["sidebet"],
    // The page's server: runs commands the binary parses for it, knows no game.
    &["web"],
    // Studies: grids of command lines the binary parses for them (as the page's), knows no
    // game but through the readers the games give it.
    &["study"],
    // The games: each uses what is below, none another game.
    &[
        "games::baccarat",
        "games::blackjack",
        "games::doom",
        "games::twentyone",
    ],
];

/// Items of the crate root (`src/lib.rs`) and the module that owns each (`#[macro_export]`
/// macros live at the root but belong to the module that defines them).
const ROOT_ITEMS: &[(&str, &str)] = &[("VERSION", "lib"), ("with_strategy", "games::blackjack")];

/// The unit a module path belongs to: `games::doom::win` → `games::doom`, `door::input` → `door`.
fn unit_of(path: &[&str]) -> String {
    match path {
        ["games", game, ..] => format!("games::{game}"),
        // `games/mod.rs` only declares the games.
        ["games"] => "lib".into(),
        [first, ..] => ROOT_ITEMS
            .iter()
            .find(|(item, _)| item == first)
            .map_or_else(|| first.to_string(), |(_, owner)| owner.to_string()),
        [] => "lib".into(),
    }
}

/// A file's module path under src/: `src/games/doom/win/kept.rs` → [games, doom, win, kept].
fn module_of(file: &Path) -> Vec<String> {
    let mut parts: Vec<String> = file
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
        parts.pop();
    }
    parts
}

/// The code of a file without its test module (`#[cfg(test)]` then `mod …`, to the end of
/// the file), which may use anything.
fn without_tests(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let end = lines
        .windows(2)
        .position(|w| w[0].trim() == "#[cfg(test)]" && w[1].trim_start().starts_with("mod "))
        .unwrap_or(lines.len());
    lines[..end].join("\n")
}

/// Every module path a file's code names through `crate::` (with `{…}` groups opened) or
/// `super::` (resolved from `module`, the file's own path), as crate-rooted segments.
fn references(code: &str, module: &[String]) -> Vec<Vec<String>> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect()
    };
    let mut out = Vec::new();
    let mut i = 0;
    while i < code.len() {
        let rest = &code[i..];
        let before = code[..i].chars().next_back();
        let starts_path =
            !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == ':');
        let (mut base, tail) = if starts_path && rest.starts_with("crate::") {
            (Vec::new(), &rest["crate::".len()..])
        } else if starts_path && rest.starts_with("super::") {
            let mut up = module.to_vec();
            let mut t = rest;
            while let Some(r) = t.strip_prefix("super::") {
                up.pop();
                t = r;
            }
            (up, t)
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        };
        let consumed = rest.len() - tail.len();
        let mut segs: Vec<&str> = Vec::new();
        let mut t = tail;
        let mut grouped = false;
        // Follow `a::b::` segments; a group `{x, y::z}` gives each of its items.
        loop {
            if let Some(group) = t.strip_prefix('{') {
                let mut depth = 0;
                let mut item_start = true;
                for (k, c) in group.char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' if depth == 0 => break,
                        '}' => depth -= 1,
                        ',' if depth == 0 => item_start = true,
                        c if item_start && !c.is_whitespace() => {
                            item_start = false;
                            let name = ident(&group[k..]);
                            if !name.is_empty() && name != "self" {
                                let mut p = base.clone();
                                p.extend(segs.iter().map(|s| s.to_string()));
                                p.push(name.clone());
                                // `games::{doom, …}` names a game in the next segment.
                                if let Some(r) = group[k + name.len()..].strip_prefix("::") {
                                    p.push(ident(r));
                                }
                                out.push(p);
                            }
                        }
                        _ => {}
                    }
                }
                grouped = true;
                break;
            }
            let name = ident(t);
            if name.is_empty() {
                break;
            }
            segs.push(&t[..name.len()]);
            match t[name.len()..].strip_prefix("::") {
                Some(r) if segs.len() < 2 => t = r,
                _ => break,
            }
        }
        if !grouped && !segs.is_empty() {
            base.extend(segs.iter().map(|s| s.to_string()));
            out.push(base);
        }
        i += consumed.max(1);
    }
    out
}

#[test]
fn references_are_read_from_paths_groups_and_supers() {
    let m: Vec<String> = ["games", "doom", "win", "kept"].map(String::from).into();
    let refs = |code: &str| -> Vec<String> {
        let mut units: Vec<String> = references(code, &m)
            .into_iter()
            .map(|p| unit_of(&p.iter().map(String::as_str).collect::<Vec<_>>()))
            .collect();
        units.dedup();
        units
    };
    assert_eq!(refs("use crate::job::{Ctx, Job};"), ["job"]);
    assert_eq!(
        refs("use crate::{door::Door, report::Report};"),
        ["door", "report"]
    );
    assert_eq!(
        refs("let x = crate::games::blackjack::rules::Rules::seed();"),
        ["games::blackjack"]
    );
    assert_eq!(
        refs("use crate::games::{baccarat, doom::Doom};"),
        ["games::baccarat", "games::doom"]
    );
    assert_eq!(refs("use super::super::jobs::plan_line;"), ["games::doom"]);
    assert_eq!(
        refs("super::super::super::twentyone::X"),
        ["games::twentyone"]
    );
    assert_eq!(refs("crate::VERSION"), ["lib"]);
    assert_eq!(refs("$crate::job::Error"), Vec::<String>::new());
    assert_eq!(refs("mycrate::job"), Vec::<String>::new());
    let code = "fn f() {}\n#[cfg(test)]\nmod tests {\n    use crate::games::doom;\n}\n";
    assert_eq!(without_tests(code), "fn f() {}");
}

#[test]
fn no_module_uses_one_above_it_or_a_sibling_game() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let rank = |unit: &str| -> Option<usize> {
        if unit == "lib" {
            return Some(0);
        }
        ORDER.iter().position(|l| l.contains(&unit))
    };
    let (mut scanned, mut refs, mut found) = (0, 0, Vec::new());
    for f in &files {
        let rel = f.strip_prefix(&src).unwrap();
        if rel.starts_with("cli") || rel == Path::new("main.rs") || rel == Path::new("lib.rs") {
            continue;
        }
        scanned += 1;
        let module = module_of(rel);
        let own = unit_of(&module.iter().map(String::as_str).collect::<Vec<_>>());
        let own_rank = rank(&own).unwrap_or_else(|| {
            panic!(
                "{}: module {own} is not in ORDER: add it where it belongs",
                rel.display()
            )
        });
        let code = without_tests(&std::fs::read_to_string(f).unwrap());
        for path in references(&code, &module) {
            refs += 1;
            let unit = unit_of(&path.iter().map(String::as_str).collect::<Vec<_>>());
            if unit == own {
                continue;
            }
            match rank(&unit) {
                Some(r) if r < own_rank => {}
                Some(_) => found.push(format!(
                    "{}: {own} uses {unit} ({})",
                    rel.display(),
                    path.join("::")
                )),
                None => found.push(format!(
                    "{}: {own} uses {unit}, which is not in ORDER",
                    rel.display()
                )),
            }
        }
    }
    assert!(
        scanned > 60 && refs > 300,
        "the scan read only {scanned} files and {refs} paths"
    );
    assert!(
        found.is_empty(),
        "a module uses one above it in ORDER, or another game (move the shared part down, or \
         pass what it needs in from above):\n{}",
        found.join("\n")
    );
}
