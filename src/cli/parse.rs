//! How the command line is parsed: every help text wrapped below its flag, every option taking
//! a negative number as its value, and clap's errors said plainly where it guesses wrong.

/// `cmd` and its subcommands made ready to parse: help texts wrapped (`help_fits`) below
/// their flags, and every option taking a negative number as its value.
pub(super) fn prepare(cmd: clap::Command) -> clap::Command {
    let names: Vec<String> = cmd
        .get_subcommands()
        .map(|s| s.get_name().to_string())
        .collect();
    let about = cmd.get_about().map(|t| help_fits(&t.to_string(), 80, 0));
    let long_about = cmd
        .get_long_about()
        .map(|t| help_fits(&t.to_string(), 100, 0));
    let mut cmd = cmd.next_line_help(true).mut_args(|a| {
        let mut a = a;
        if let Some(help) = a.get_help().map(|t| t.to_string()) {
            // -h: clap appends the default and the possible values to the last line.
            let long = a.get_long_help().map_or(help.clone(), |t| t.to_string());
            let tail = inline_values(&a).chars().count();
            a = a
                .help(help_fits(&help, 90, tail))
                .long_help(help_fits(&long, 90, 0));
        }
        if a.get_action().takes_values() {
            a = a.allow_negative_numbers(true);
        }
        a
    });
    if let Some(t) = about {
        cmd = cmd.about(t);
    }
    if let Some(t) = long_about {
        cmd = cmd.long_about(t);
    }
    names.iter().fold(cmd, |c, n| c.mut_subcommand(n, prepare))
}

/// An unknown subcommand's error `e`, with the subcommands the command given has.
pub(super) fn with_subcommands(
    cmd: &clap::Command,
    args: &[std::ffi::OsString],
    e: clap::Error,
) -> clap::Error {
    // The command whose subcommand was misspelt: follow the names given (`help` names the
    // commands after it: `help sim poker` is about `sim`).
    let mut at = cmd;
    let mut path = vec![cmd.get_name().to_string()];
    for a in args.iter().skip(1) {
        match at.find_subcommand(a) {
            _ if a == "help" => {}
            Some(sub) => {
                at = sub;
                path.push(sub.get_name().to_string());
            }
            None if a.to_string_lossy().starts_with('-') => {}
            None => break,
        }
    }
    let known: Vec<&str> = at
        .get_subcommands()
        .map(|s| s.get_name())
        .filter(|n| *n != "help")
        .collect();
    if known.is_empty() {
        return e;
    }
    let mut e = e;
    e.insert(
        clap::error::ContextKind::Suggested,
        clap::error::ContextValue::StyledStrs(vec![format!(
            "'{}' has: {}",
            path.join(" "),
            known.join(", ")
        )
        .into()]),
    );
    e
}

/// Whether `e` is `compare` refusing a flag of shard files (`--shard`, `--shards`,
/// `--shard-out`, `--checkpoint`).
pub(super) fn is_shard_flag_of_compare(e: &clap::Error, args: &[std::ffi::OsString]) -> bool {
    e.kind() == clap::error::ErrorKind::UnknownArgument
        && args.get(1).is_some_and(|a| a == "compare")
        && matches!(
            e.get(clap::error::ContextKind::InvalidArg),
            Some(clap::error::ContextValue::String(a))
                if ["--shard", "--shards", "--shard-out", "--checkpoint"]
                    .contains(&a.split('=').next().unwrap_or(""))
        )
}

/// `compare` given a flag of shard files: said plainly rather than clap's nearest other
/// flag, with the usage of the compare command given.
pub(super) fn compare_in_one_process(
    cmd: clap::Command,
    args: &[std::ffi::OsString],
) -> clap::Error {
    let msg = format!(
        "{} (leave out --shard, --shards, --shard-out and --checkpoint)",
        rtplab::game::COMPARE_IN_ONE_PROCESS
    );
    let game = args.get(2).and_then(|g| g.to_str()).unwrap_or("");
    let mut at = match cmd
        .find_subcommand("compare")
        .and_then(|c| c.find_subcommand(game))
    {
        Some(g) => g.clone().bin_name(format!("rtplab compare {game}")),
        None => cmd,
    };
    at.error(clap::error::ErrorKind::UnknownArgument, msg)
}

/// `text` with each of its lines broken between words to at most `width` characters, the
/// last line leaving room for `tail` more after a space (a new line when it would not fit).
/// clap indents a flag's help by 10 columns but wraps it only with its `wrap_help` feature
/// (and a terminal-size dependency); without, a paragraph of help would be one line of
/// hundreds of characters.
fn help_fits(text: &str, width: usize, tail: usize) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / width);
    let mut len = 0;
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        len = 0;
        for word in line.split(' ') {
            let w = word.chars().count();
            if len > 0 && len + 1 + w > width {
                out.push('\n');
                len = 0;
            } else if len > 0 {
                out.push(' ');
                len += 1;
            }
            out.push_str(word);
            len += w;
        }
    }
    if tail > 0 && len > 0 && len + 1 + tail > width {
        out.push('\n');
    }
    out
}

/// What clap appends to a flag's short help: ` [default: X] [possible values: a, b]`.
fn inline_values(a: &clap::Arg) -> String {
    let mut s = String::new();
    let defaults: Vec<String> = a
        .get_default_values()
        .iter()
        .map(|v| match v.to_string_lossy() {
            v if v.is_empty() || v.contains(' ') => format!("{v:?}"),
            v => v.to_string(),
        })
        .collect();
    if !defaults.is_empty() && !a.is_hide_default_value_set() {
        s += &format!(" [default: {}]", defaults.join(", "));
    }
    let values: Vec<String> = a
        .get_possible_values()
        .iter()
        .filter(|v| !v.is_hide_set())
        .map(|v| v.get_name().to_string())
        .collect();
    if !values.is_empty() && !a.is_hide_possible_values_set() {
        s += &format!(" [possible values: {}]", values.join(", "));
    }
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn help_text_is_broken_between_words_to_the_width() {
        assert_eq!(super::help_fits("aa bb cc dd", 5, 0), "aa bb\ncc dd");
        assert_eq!(super::help_fits("aa bb\n\ncc", 80, 0), "aa bb\n\ncc");
        // A word longer than the width stands on a line of its own.
        assert_eq!(super::help_fits("a longerword b", 5, 0), "a\nlongerword\nb");
        // Room for what clap appends: on the last line if it fits, else on a line of its own.
        assert_eq!(super::help_fits("aa bb", 8, 2), "aa bb");
        assert_eq!(super::help_fits("aa bb", 8, 3), "aa bb\n");
    }
}
