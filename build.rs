//! Records the git commit the binary is built from (for the audit dossier's identity): the
//! commit's 12-hex-digit name, `-dirty` when tracked files differ from it.
//!
//! Both questions are asked with `GIT_OPTIONAL_LOCKS=0`, so git does not refresh `.git/index`
//! while answering; a refreshed index would be a changed `rerun-if-changed` input, and the
//! next cargo command would build the crate again for nothing.

fn git(args: &[&str]) -> Option<String> {
    std::process::Command::new("git")
        .args(args)
        .env("GIT_OPTIONAL_LOCKS", "0")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
}

fn main() {
    let commit = git(&["rev-parse", "--short=12", "HEAD"])
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty());
    if let Some(c) = commit {
        let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
            .is_some_and(|s| !s.trim().is_empty());
        let suffix = if dirty { "-dirty" } else { "" };
        println!("cargo:rustc-env=RTPLAB_GIT_COMMIT={c}{suffix}");
    }
    for p in [".git/HEAD", ".git/index"] {
        if std::path::Path::new(p).exists() {
            println!("cargo:rerun-if-changed={p}");
        }
    }
    // The door's test hook (`door::pause`) is compiled into the test builds only: the `ci`
    // profile (the tests' builds) and debug builds, never the release build people run.
    println!("cargo::rustc-check-cfg=cfg(rtplab_test_hooks)");
    // OUT_DIR is `<target>/[<triple>/]<profile>/build/<crate>-<hash>/out`: the profile is the
    // folder holding `build`.
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    let profile = out
        .ancestors()
        .find(|a| a.file_name().is_some_and(|n| n == "build"))
        .and_then(|b| b.parent())
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str().map(String::from))
        .unwrap_or_default();
    if profile == "ci" || profile == "debug" {
        println!("cargo:rustc-cfg=rtplab_test_hooks");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
