//! Small files of settings: the dice games' strategy files (the first non-comment line is a
//! strategy spec), and the one reader of the TOML subset that paytables, table files and study
//! files are written in.

use std::path::Path;

/// Whether a strategy argument names a file rather than a spec.
pub fn is_path(spec: &str) -> bool {
    crate::door::is_path(spec)
}

/// Read the spec line of a strategy file: its line number and text. `#` starts a comment;
/// blank lines are skipped; a file may not name another file.
pub fn read_spec_line(path: &Path) -> Result<(usize, String), String> {
    let text =
        crate::door::input::read_text(path, "strategy file", crate::door::input::MAX_TEXT_BYTES)
            .map_err(|e| e.to_string())?;
    let (n, line) = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim()))
        .find(|(_, l)| !l.is_empty())
        .ok_or_else(|| format!("{}: no strategy spec in the file", path.display()))?;
    if is_path(line) {
        return Err(format!(
            "{}:{n}: a strategy file may not name another file",
            path.display()
        ));
    }
    Ok((n, line.to_string()))
}

/// The small subset of TOML every rtplab file of settings is written in (side-bet paytables,
/// table files, study files), read by this one reader: `key = value` lines, `[section]` and
/// `[[section]]` headers, `#` comments, and values that are a "string", a number, `true` or
/// `false`, or a one-line list of those (`[0.65, 0.8]`). Every item keeps its line, so each
/// reader's errors name the file, the line and the field.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Str(String),
    /// A number as written (its text kept: `0.75`, `6`, `-2`, `200_000` read as 200000).
    Num(f64, String),
    Bool(bool),
    List(Vec<Value>),
}

impl Value {
    /// The value as a word: a string unquoted, a number as written, `true`/`false`; a list's
    /// items joined by commas.
    pub fn text(&self) -> String {
        match self {
            Value::Str(s) => s.clone(),
            Value::Num(_, t) => t.clone(),
            Value::Bool(b) => b.to_string(),
            Value::List(v) => v.iter().map(Value::text).collect::<Vec<_>>().join(","),
        }
    }

    /// What kind of value it is, for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Str(_) => "a string",
            Value::Num(..) => "a number",
            Value::Bool(_) => "true or false",
            Value::List(_) => "a list",
        }
    }
}

/// One line of a settings file that says something.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// `[name]` (`array`: false) or `[[name]]` (true).
    Header {
        line: usize,
        name: String,
        array: bool,
    },
    /// `key = value`.
    Pair {
        line: usize,
        key: String,
        value: Value,
    },
}

/// A settings file that cannot be read, with its line (the file's name first).
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("{file}:{line}: {message}")]
pub struct SettingsError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

/// The most items in one list.
pub const MAX_LIST: usize = 1000;

/// Read a settings file's text (`file` names it in errors) into its items, in order.
pub fn read_settings(text: &str, file: &str) -> Result<Vec<Item>, SettingsError> {
    let err = |line: usize, message: String| SettingsError {
        file: file.to_string(),
        line,
        message,
    };
    let mut items = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        if let Some(rest) = line.strip_prefix('[') {
            let (inner, array) = match rest.strip_prefix('[') {
                Some(r) => (r.strip_suffix("]]"), true),
                None => (rest.strip_suffix(']'), false),
            };
            let name = inner.map(str::trim).filter(|s| {
                !s.is_empty()
                    && s.chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            });
            let Some(name) = name else {
                return Err(err(
                    n,
                    format!(
                        "a section header is [name] or [[name]], found '{}'",
                        crate::door::input::quote(line)
                    ),
                ));
            };
            items.push(Item::Header {
                line: n,
                name: name.to_string(),
                array,
            });
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            return Err(err(
                n,
                format!(
                    "expected KEY = VALUE, found '{}'",
                    crate::door::input::quote(line)
                ),
            ));
        };
        let key = unquote(key.trim());
        if key.is_empty() {
            return Err(err(n, "a key is missing before '='".into()));
        }
        let value = parse_value(value.trim()).map_err(|m| err(n, format!("{key}: {m}")))?;
        items.push(Item::Pair {
            line: n,
            key,
            value,
        });
    }
    Ok(items)
}

/// The text before a `#` that is outside double quotes.
fn strip_comment(s: &str) -> &str {
    let mut quoted = false;
    for (i, c) in s.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '#' if !quoted => return &s[..i],
            _ => {}
        }
    }
    s
}

fn unquote(s: &str) -> String {
    let s = s.trim();
    s.strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(s)
        .to_string()
}

fn parse_value(s: &str) -> Result<Value, String> {
    if let Some(inner) = s.strip_prefix('[') {
        let inner = inner
            .strip_suffix(']')
            .ok_or("a list is [a, b, ...] on one line: the closing ']' is missing")?;
        let mut out = Vec::new();
        for part in split_list(inner) {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            if part.starts_with('[') {
                return Err("a list may not hold a list".into());
            }
            if out.len() == MAX_LIST {
                return Err(format!("more than {MAX_LIST} items in a list"));
            }
            out.push(parse_value(part)?);
        }
        return Ok(Value::List(out));
    }
    if let Some(inner) = s.strip_prefix('"') {
        let inner = inner
            .strip_suffix('"')
            .ok_or("a string is \"...\" on one line: the closing quote is missing")?;
        if inner.contains('"') {
            return Err("a string may not hold a double quote".into());
        }
        return Ok(Value::Str(inner.to_string()));
    }
    match s {
        "true" => return Ok(Value::Bool(true)),
        "false" => return Ok(Value::Bool(false)),
        _ => {}
    }
    let plain = s.replace('_', "");
    match plain.parse::<f64>() {
        Ok(v) if v.is_finite() && !plain.is_empty() => Ok(Value::Num(v, plain)),
        _ => Err(format!(
            "'{}' is not a value: write a \"string\", a number, true, false or a list [a, b]",
            crate::door::input::quote(s)
        )),
    }
}

/// The items of a list's inside, split at commas outside quotes.
fn split_list(s: &str) -> Vec<&str> {
    let (mut parts, mut quoted, mut start) = (Vec::new(), false, 0);
    for (i, c) in s.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

/// Where a game's rule set was read from: a table file (`--table FILE`), as reports name it.
/// It is not part of the rules: two rule sets equal but for their label are equal, and a field
/// named `label` is no part of a run's identity (shard keys).
#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct TableLabel(pub Option<TableFile>);

/// A table file as reports name it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TableFile {
    /// The path as given.
    pub file: String,
    /// The table's `name` line (the file's stem when it has none).
    pub name: String,
    /// FNV-1a 64 of the file's bytes, 16 hex digits.
    pub hash: String,
}

impl TableLabel {
    pub fn is_none(&self) -> bool {
        self.0.is_none()
    }

    /// What a report's rules line starts with: `table NAME (FILE, HASH8): `, or nothing.
    pub fn prefix(&self) -> String {
        match &self.0 {
            Some(t) => format!("table {} ({}, {}): ", t.name, t.file, &t.hash[..8]),
            None => String::new(),
        }
    }
}

/// A label never makes two rule sets differ.
impl PartialEq for TableLabel {
    fn eq(&self, _: &TableLabel) -> bool {
        true
    }
}

/// A table file that cannot be read: the file, its line and the field, and what to change.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("{0}")]
pub struct TableError(pub String);

/// The most bytes of a table file.
pub const MAX_TABLE_FILE_BYTES: u64 = 64 * 1024;

/// Read a table file (`file` names it in errors; `text` is its content, hashed for the label)
/// of the game `game`: `game = "GAME"`, an optional `name` and `source`, and one `KEY = VALUE`
/// line per rule, each given to `set` in the file's order (its message is put after the line
/// and the key). The one reader of every game's table files (docs/tables.md).
pub fn read_table(
    text: &str,
    file: &str,
    game: &str,
    mut set: impl FnMut(&str, &Value) -> Result<(), String>,
) -> Result<TableFile, TableError> {
    let err = |line: usize, m: String| TableError(format!("{file}:{line}: {m}"));
    let (mut found, mut name) = (None, None);
    let items = read_settings(text, file).map_err(|e| TableError(e.to_string()))?;
    let mut seen: Vec<String> = Vec::new();
    for item in items {
        let (line, key, value) = match item {
            Item::Header { line, name, .. } => {
                return Err(err(
                    line,
                    format!("a table file has no sections ([{name}]): write KEY = VALUE lines"),
                ))
            }
            Item::Pair { line, key, value } => (line, key, value),
        };
        if seen.contains(&key) {
            return Err(err(line, format!("{key} is set twice")));
        }
        seen.push(key.clone());
        match key.as_str() {
            "game" => found = Some((line, value.text())),
            "name" => {
                let v = value.text();
                if v.is_empty() || v.chars().count() > 64 {
                    return Err(err(line, "name: 1 to 64 characters".into()));
                }
                name = Some(v)
            }
            "source" => {}
            k => set(k, &value).map_err(|m| err(line, format!("{k}: {m}")))?,
        }
    }
    match found {
        Some((_, g)) if g == game => {}
        Some((line, g)) => {
            return Err(err(
                line,
                format!(
                "game = \"{}\": this is a {game} command; a {game} table says game = \"{game}\"",
                crate::door::input::quote(&g)
            ),
            ))
        }
        None => return Err(err(1, format!("no game = \"{game}\" line"))),
    }
    let stem = Path::new(file)
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| file.to_string());
    Ok(TableFile {
        file: file.to_string(),
        name: name.unwrap_or(stem),
        hash: format!("{:016x}", crate::door::cache::hash(text.as_bytes())),
    })
}

/// A table file's text, read through the door (at most [`MAX_TABLE_FILE_BYTES`], UTF-8), and
/// its name as given, for [`read_table`].
pub fn table_text(path: &Path) -> Result<(String, String), TableError> {
    let text = crate::door::input::read_text(path, "table file", MAX_TABLE_FILE_BYTES)
        .map_err(|e| TableError(e.to_string()))?;
    Ok((text, path.display().to_string()))
}

/// The error of a table file's key that is not one of `keys` (a game's rules).
pub fn unknown_rule(key: &str, keys: &[&str]) -> String {
    format!(
        "unknown rule '{}': the rules are {}",
        crate::door::input::quote(key),
        keys.join(", ")
    )
}

/// Read a setting's value as a whole number from `lo` to `hi`.
pub fn whole(value: &Value, lo: f64, hi: f64) -> Result<f64, String> {
    match value {
        Value::Num(x, _) if x.fract() == 0.0 && (lo..=hi).contains(x) => Ok(*x),
        _ => Err(format!(
            "expected a whole number from {lo} to {hi}, found '{}'",
            value.text()
        )),
    }
}

/// Read a setting's value as `true` or `false`.
pub fn flag(value: &Value) -> Result<bool, String> {
    match value {
        Value::Bool(b) => Ok(*b),
        other => Err(format!("expected true or false, found {}", other.kind())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_spec_line_is_read_and_errors_name_the_file() {
        let d = std::env::temp_dir().join(format!("rtplab-specfile-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        let f = d.join("s.txt");
        std::fs::write(&f, "# a comment\n\n  bank-at:300  # trailing\nignored\n").unwrap();
        assert_eq!(read_spec_line(&f).unwrap(), (3, "bank-at:300".to_string()));
        std::fs::write(&f, "# only comments\n").unwrap();
        assert!(read_spec_line(&f).unwrap_err().contains("no strategy spec"));
        std::fs::write(&f, "other.txt\n").unwrap();
        assert!(read_spec_line(&f)
            .unwrap_err()
            .contains(":1: a strategy file may not"));
        assert!(read_spec_line(&d.join("missing.txt"))
            .unwrap_err()
            .contains("no such file"));
    }

    #[test]
    fn settings_read_with_their_lines_and_errors_name_line_and_field() {
        let text = "# c\ngame = \"blackjack\"  # a comment\n\n[grid]\npenetration = [0.65, 0.8]\ncount = [\"hi-lo\", \"ko\"]\n[[rows]]\nh17 = true\nrounds = 200_000\n";
        let items = read_settings(text, "s.toml").unwrap();
        assert_eq!(
            items[0],
            Item::Pair {
                line: 2,
                key: "game".into(),
                value: Value::Str("blackjack".into())
            }
        );
        assert_eq!(
            items[1],
            Item::Header {
                line: 4,
                name: "grid".into(),
                array: false
            }
        );
        let Item::Pair { value, .. } = &items[2] else {
            panic!("a pair")
        };
        assert_eq!(value.text(), "0.65,0.8");
        assert!(matches!(&items[4], Item::Header { array: true, .. }));
        assert!(matches!(&items[6], Item::Pair { value: Value::Num(v, _), .. } if *v == 200000.0));
        let e = |t: &str| read_settings(t, "f.toml").unwrap_err().to_string();
        assert_eq!(e("a = 1\nb\n"), "f.toml:2: expected KEY = VALUE, found 'b'");
        assert!(e("x = [1, 2\n").starts_with("f.toml:1: x: a list is"));
        assert!(e("x = \"open\n").contains("closing quote"));
        assert!(e("x = maybe\n").contains("'maybe' is not a value"));
        assert!(e("[bad name]\n").contains("a section header"));
    }
}
