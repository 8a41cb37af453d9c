//! The integration tests are one binary (`tests/it/main.rs`, Cargo.toml's `[[test]]` with
//! `autotests = false`), so a test file is compiled only as a module of it: a file elsewhere
//! in `tests/`, or one in `tests/it/` that `main.rs` does not declare, would never run. This
//! is the guard.

use crate::common::rust_files;

use std::path::Path;

#[test]
fn every_test_file_is_a_module_of_the_one_test_binary() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let it = tests.join("it");
    let main = std::fs::read_to_string(it.join("main.rs")).unwrap();
    let declared: Vec<&str> = main
        .lines()
        .filter_map(|l| l.trim().strip_prefix("mod ")?.strip_suffix(';'))
        .collect();
    let mut files = Vec::new();
    rust_files(&tests, &mut files);
    assert!(
        files.len() > 20,
        "the scan found only {} files under {}",
        files.len(),
        tests.display()
    );
    let lost: Vec<String> = files
        .iter()
        .filter(|f| {
            let stem = f.file_stem().unwrap().to_str().unwrap();
            f.parent() != Some(it.as_path()) || (stem != "main" && !declared.contains(&stem))
        })
        .map(|f| f.strip_prefix(&tests).unwrap().display().to_string())
        .collect();
    assert!(
        lost.is_empty(),
        "never compiled: put each test file in tests/it/ and declare it in tests/it/main.rs \
         (`mod NAME;`): {lost:?}"
    );
}
