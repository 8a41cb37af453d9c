//! What a command reads and writes, from its parsed arguments: one table of every flag whose
//! values name files, turned into the library's `door::Plan`, which the door checks all
//! together before the command is built.

use rtplab::door::{InputKind, OutputKind, Plan};

/// What the values of a file flag are.
#[derive(Clone, Copy, Debug)]
pub enum Role {
    /// An output of this kind.
    Out(OutputKind),
    /// The report folder (`--out-dir`; `--force` decides whether an earlier report is
    /// replaced).
    OutDir,
    /// An input file (or `-`, standard input, where the command reads it).
    In(InputKind),
    /// A built-in name or a file (a strategy, a count): an input when it names a file.
    Maybe(InputKind),
    /// A ramp: a spec (`0:1,2:4`) or a file.
    Ramp,
    /// Index plays: built-in sets or files joined by `+`.
    Indices,
    /// A solved table: read when it exists, else written (the door holds it).
    Table,
    /// A side bet: a built-in name or a paytable file, either with `:STAKE` after it.
    Side,
}

/// Every flag (clap's id) whose values name files, with its role. A flag that takes a file
/// and is missing here is an input or output the door does not see: the test
/// `every_file_flag_is_in_the_table` fails.
pub const FILE_ARGS: &[(&str, Role)] = &[
    ("output", Role::Out(OutputKind::File)),
    ("out_dir", Role::OutDir),
    ("shard_out", Role::Out(OutputKind::Regular)),
    ("ramp_out", Role::Out(OutputKind::File)),
    ("card", Role::Out(OutputKind::File)),
    ("bets_out", Role::Out(OutputKind::File)),
    ("log_out", Role::Out(OutputKind::File)),
    ("rounds_out", Role::Out(OutputKind::Regular)),
    ("periods_out", Role::Out(OutputKind::File)),
    ("strategy", Role::Maybe(InputKind::Text)),
    ("errors", Role::Maybe(InputKind::Text)),
    ("strategies", Role::Maybe(InputKind::Text)),
    ("seats", Role::Maybe(InputKind::Text)),
    ("count", Role::Maybe(InputKind::Text)),
    ("counts", Role::Maybe(InputKind::Text)),
    ("ramp", Role::Ramp),
    ("ramps", Role::Ramp),
    ("indices", Role::Indices),
    ("sheets", Role::In(InputKind::Text)),
    ("from", Role::In(InputKind::Report)),
    ("expected", Role::In(InputKind::Report)),
    ("log", Role::In(InputKind::Log)),
    ("files", Role::In(InputKind::Shard)),
    ("dir", Role::In(InputKind::Folder)),
    ("reports", Role::In(InputKind::Folder)),
    ("win_table", Role::Table),
    ("side", Role::Side),
    ("table", Role::In(InputKind::Text)),
    ("study_file", Role::In(InputKind::Text)),
    ("cells_from", Role::In(InputKind::Folder)),
];

/// The plan of the command whose own arguments are `leaf` (the innermost subcommand's).
pub fn plan(leaf: &clap::ArgMatches, cmd: &clap::Command) -> Plan {
    let mut plan = Plan::default();
    let flag_set = |id: &str| leaf.try_get_one::<bool>(id).ok().flatten() == Some(&true);
    let force = flag_set("force");
    let shards_given = leaf.try_get_one::<u32>("shards").ok().flatten().is_some();
    let game = cmd.get_name();
    let builtin =
        |id: &str, v: &std::ffi::OsStr| v.to_str().is_some_and(|v| builtin_name(game, id, v));
    for (id, role) in FILE_ARGS {
        let Some(values) = values(leaf, id) else {
            continue;
        };
        let flag = flag_name(cmd, id);
        for v in values {
            let p = std::path::Path::new(&v);
            let text = v.to_string_lossy();
            match role {
                Role::Out(kind) => {
                    plan.output(&flag, Some(p), *kind);
                }
                // A study's folder is kept and added to, cell by cell, never replaced whole;
                // a dry run or a plan only reads it.
                Role::OutDir if game == "study" && (flag_set("dry_run") || shards_given) => {}
                Role::OutDir if game == "study" => {
                    plan.output(&flag, Some(p), OutputKind::Files);
                }
                Role::OutDir => {
                    plan.output(&flag, Some(p), OutputKind::Dir { force });
                }
                Role::In(kind) => {
                    plan.input(&flag, p, *kind);
                }
                Role::Maybe(kind) => {
                    plan.maybe_input(&flag, &v, *kind, builtin(id, &v));
                }
                Role::Ramp if !text.contains(':') => {
                    plan.maybe_input(&flag, &v, InputKind::Text, false);
                }
                Role::Ramp => {}
                Role::Table if std::fs::symlink_metadata(p).is_ok() => {
                    plan.input(&flag, p, InputKind::Table);
                }
                Role::Table => {
                    plan.output(&flag, Some(p), OutputKind::Regular);
                }
                Role::Side => {
                    let name = rtplab::sidebet::split_stake(&text)
                        .map(|(n, _)| n.to_string())
                        .unwrap_or_else(|| text.to_string());
                    let part = std::ffi::OsStr::new(&name);
                    let builtin = rtplab::sidebet::is_built_in(&name) && !name.contains('/');
                    plan.maybe_input(&flag, part, InputKind::Text, builtin);
                }
                Role::Indices => {
                    for part in text.split('+').map(str::trim) {
                        let part = std::ffi::OsStr::new(part);
                        plan.maybe_input(&flag, part, InputKind::Text, builtin(id, part));
                    }
                }
            }
        }
    }
    // `check DIR --bless` rewrites the baselines in DIR: the folder is an output too, held.
    if flag_set("bless") {
        if let Some(dir) = values(leaf, "dir").and_then(|v| v.into_iter().next()) {
            plan.output(
                "--bless",
                Some(std::path::Path::new(&dir)),
                OutputKind::Files,
            );
        }
    }
    plan
}

/// Whether `value`, given to the flag `id` of a command of `game`, is one of that command's
/// built-in names rather than a file: what each resolver takes as built-in before it looks
/// for a file (`door::names_file` is the one rule around it). A file of that name in the
/// working folder does not shadow it; `./NAME` names the file.
fn builtin_name(game: &str, id: &str, value: &str) -> bool {
    use rtplab::games::blackjack;
    match (game, id) {
        ("blackjack", "strategy" | "strategies") => {
            blackjack::resolve::BUILT_IN_STRATEGIES.contains(&value)
        }
        ("blackjack", "errors") => blackjack::mistakes::is_preset(value),
        // The dice games' strategies are specs unless they look like a path.
        (_, "strategy" | "strategies" | "seats") => !rtplab::door::is_path(value),
        (_, "count" | "counts") => blackjack::count::is_built_in(value),
        (_, "indices") => blackjack::indices::BUILT_IN.iter().any(|b| b.0 == value),
        _ => false,
    }
}

/// The values given for `id` (paths as given, byte for byte), if the command has the flag and
/// it was given.
fn values(m: &clap::ArgMatches, id: &str) -> Option<Vec<std::ffi::OsString>> {
    if let Ok(Some(v)) = m.try_get_many::<std::path::PathBuf>(id) {
        return Some(v.map(|p| p.clone().into_os_string()).collect());
    }
    if let Ok(Some(v)) = m.try_get_many::<String>(id) {
        return Some(v.map(std::ffi::OsString::from).collect());
    }
    None
}

/// How the flag `id` is written on the command line: `--long`, or the value name of an
/// argument (`LOG`).
fn flag_name(cmd: &clap::Command, id: &str) -> String {
    match cmd.get_arguments().find(|a| a.get_id() == id) {
        Some(a) => match a.get_long() {
            Some(l) => format!("--{l}"),
            None => a
                .get_value_names()
                .and_then(|n| n.first())
                .map(|n| n.to_string())
                .unwrap_or_else(|| id.to_uppercase()),
        },
        None => format!("--{}", id.replace('_', "-")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every argument of every command that takes a path (its value name says FILE, PATH,
    /// DIR, LOG or REPORT, or its help says it reads or writes a file) is in the table.
    #[test]
    fn every_file_flag_is_in_the_table() {
        use clap::CommandFactory;
        fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>) {
            for a in cmd.get_arguments() {
                if !a.get_action().takes_values() {
                    continue;
                }
                let names = a
                    .get_value_names()
                    .map(|n| {
                        n.iter()
                            .map(|s| s.to_string())
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .unwrap_or_default();
                let help = a
                    .get_long_help()
                    .or(a.get_help())
                    .map(|h| h.to_string().to_lowercase())
                    .unwrap_or_default();
                let filey = ["FILE", "PATH", "DIR", "LOG", "REPORT"]
                    .iter()
                    .any(|w| names.contains(w))
                    || help.contains("a file")
                    || help.contains("file of")
                    || help.contains("path of");
                let id = a.get_id().as_str();
                if filey && !FILE_ARGS.iter().any(|(f, _)| *f == id) {
                    missing.push(format!("{path} {id} ({names})"));
                }
            }
            for s in cmd.get_subcommands() {
                walk(s, &format!("{path} {}", s.get_name()), missing);
            }
        }
        let mut missing = Vec::new();
        walk(&super::super::Cli::command(), "rtplab", &mut missing);
        assert!(
            missing.is_empty(),
            "file flags not in FILE_ARGS: {missing:?}"
        );
    }

    #[test]
    fn a_command_line_becomes_its_plan() {
        let args = [
            "rtplab",
            "sim",
            "blackjack",
            "--count",
            "hi-lo",
            "--ramp",
            "my-ramp.txt",
            "--indices",
            "i18+mine.csv",
            "-o",
            "r.json",
            "--out-dir",
            "od",
            "--force",
        ];
        let plan = super::super::Cli::parse_args(args.map(std::ffi::OsString::from))
            .unwrap()
            .files;
        let ins: Vec<String> = plan
            .inputs
            .iter()
            .map(|i| format!("{} {}", i.flag, i.path.display()))
            .collect();
        assert_eq!(ins, ["--ramp my-ramp.txt", "--indices mine.csv"]);
        let outs: Vec<String> = plan
            .outputs
            .iter()
            .map(|o| format!("{} {} {:?}", o.flag, o.path.display(), o.kind))
            .collect();
        assert_eq!(
            outs,
            ["--output r.json File", "--out-dir od Dir { force: true }"]
        );
    }
}
