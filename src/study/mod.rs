//! `rtplab study FILE.toml`: a grid of runs named in one file (docs/study.md). Each cell is an
//! ordinary command line (`sim blackjack` and its flags), parsed and run by the binary's own
//! parser (as `rtplab serve` runs commands), so its figures are the command line's bit for
//! bit; each cell's result is kept in the study folder under a key of its full configuration
//! (its words, the bytes of every file it reads, the rtplab version), so a study run again
//! runs only what changed or is missing, and a stopped one resumes. The result is one long
//! table (a row per cell and figure) in CSV, JSON and Parquet, labelled by what differs
//! between the cells, with plots chosen by the grid's axes and an HTML index.

mod out;
pub mod parquet;
mod run;

pub use out::{result_table, ResultRow, ResultTable};
pub use run::{run_study, StudyJob};

use serde::{Deserialize, Serialize};

use crate::specfile::{read_settings, Item, Value};

/// The most cells in one study.
pub const MAX_CELLS: usize = 10_000;
/// The most bytes of a study file.
pub const MAX_STUDY_BYTES: u64 = 256 * 1024;

/// Settings a cell may not carry: the study decides where results go and how cells run.
const REFUSED: &[(&str, &str)] = &[
    ("out-dir", "the study writes its own folder"),
    ("output", "the study writes its own files"),
    ("o", "the study writes its own files"),
    ("format", "the study keeps every cell's figures"),
    ("shard", "shard a study with --shard K/N on the study"),
    ("shard-out", "shard a study with --shard K/N on the study"),
    ("checkpoint", "a study resumes by its cells"),
    ("log-out", "a study keeps figures, not round logs"),
    ("force", "a study keeps its folder"),
    ("q", "a study's cells run quietly"),
    ("quiet", "a study's cells run quietly"),
    ("threads", "give --threads to the study"),
];

/// Why a study cannot run, each saying what to change.
#[derive(Debug, thiserror::Error)]
pub enum StudyError {
    #[error("{0}")]
    File(String),
    #[error("{file}: cell {cell} ({label}): {message}")]
    Cell {
        file: String,
        cell: usize,
        label: String,
        message: String,
    },
    #[error("{0}")]
    Write(String),
}
crate::job::carried!(StudyError);

/// A game's reading of the reports its study cells make: the figures of one run, by the
/// names of its report model's fields (tied to the model by the game's test).
#[derive(Clone, Copy)]
pub struct Reader {
    /// The game (`game = "..."` in a study file).
    pub game: &'static str,
    /// The command a cell runs, before its flags.
    pub command: &'static [&'static str],
    pub read: fn(&serde_json::Value) -> Result<CellRun, serde_json::Error>,
}

/// One figure of a cell: its value, and its standard error and 95% interval where the run
/// states them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figure {
    pub name: String,
    pub value: f64,
    pub se: Option<f64>,
    pub ci95: Option<[f64; 2]>,
}

/// What a cell's run reported: its size, seed, whether it ran to its end, and its figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellRun {
    pub seed: u64,
    pub rounds: u64,
    pub elapsed_s: f64,
    pub interrupted: bool,
    pub figures: Vec<Figure>,
}

/// One setting of a cell: a flag of the cell's command and its value, with the line that
/// gave it.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    pub key: String,
    pub value: Value,
    pub line: usize,
}

impl Setting {
    /// The value as a label shows it: a table file by its stem, others as written.
    pub fn shown(&self) -> String {
        let t = self.value.text();
        if self.key == "table" {
            if let Some(stem) = std::path::Path::new(&t).file_stem() {
                return stem.to_string_lossy().to_string();
            }
        }
        t
    }

    /// The command-line words of this setting: `--key value`, `--key` for true, nothing for
    /// false, the flag repeated for each item of a list.
    fn words(&self) -> Vec<String> {
        let flag = if self.key.chars().count() == 1 {
            format!("-{}", self.key)
        } else {
            format!("--{}", self.key)
        };
        match &self.value {
            Value::Bool(true) => vec![flag],
            Value::Bool(false) => vec![],
            Value::List(items) => items
                .iter()
                .flat_map(|v| [flag.clone(), v.text()])
                .collect(),
            v => vec![flag, v.text()],
        }
    }
}

/// A study file, read.
#[derive(Clone, Debug)]
pub struct StudyFile {
    /// The file's path as given.
    pub file: String,
    pub game: String,
    pub title: String,
    /// The figure the plots draw (`plot = "score"`); default: SCORE where every cell counts,
    /// else the EV per initial bet.
    pub plot: Option<String>,
    /// `[run]`: settings of every cell.
    pub run: Vec<Setting>,
    /// `[grid]`: lists crossed, in the file's order.
    pub grid: Vec<(String, Vec<Value>, usize)>,
    /// `[[rows]]`: explicit cells (crossed with the grid).
    pub rows: Vec<Vec<Setting>>,
}

/// One cell: its number (1-based), settings and command words.
#[derive(Clone, Debug)]
pub struct Cell {
    pub n: usize,
    pub settings: Vec<Setting>,
    pub words: Vec<String>,
}

impl StudyFile {
    /// Read a study file's text; `file` names it in errors.
    pub fn parse(text: &str, file: &str) -> Result<StudyFile, StudyError> {
        let err = |line: usize, m: String| StudyError::File(format!("{file}:{line}: {m}"));
        let items = read_settings(text, file).map_err(|e| StudyError::File(e.to_string()))?;
        let mut s = StudyFile {
            file: file.to_string(),
            game: String::new(),
            title: String::new(),
            plot: None,
            run: Vec::new(),
            grid: Vec::new(),
            rows: Vec::new(),
        };
        #[derive(PartialEq)]
        enum Part {
            Top,
            Run,
            Grid,
            Row,
        }
        let mut part = Part::Top;
        for item in items {
            let (line, key, value) = match item {
                Item::Header { line, name, array } => {
                    part = match (name.as_str(), array) {
                        ("run", false) => Part::Run,
                        ("grid", false) => Part::Grid,
                        ("rows", true) => {
                            s.rows.push(Vec::new());
                            Part::Row
                        }
                        _ => {
                            return Err(err(
                                line,
                                format!(
                                "unknown section '{name}': a study has [run], [grid] and [[rows]]"
                            ),
                            ))
                        }
                    };
                    continue;
                }
                Item::Pair { line, key, value } => (line, key, value),
            };
            if part != Part::Top {
                if let Some((_, why)) = REFUSED.iter().find(|(k, _)| *k == key) {
                    return Err(err(line, format!("{key}: not a setting of a cell: {why}")));
                }
            }
            match part {
                Part::Top => match key.as_str() {
                    "game" => s.game = value.text(),
                    "title" => s.title = value.text(),
                    "plot" => s.plot = Some(value.text()),
                    _ => {
                        return Err(err(
                            line,
                            format!(
                                "{key}: the top of a study file has game, title and plot; settings go under [run], [grid] or [[rows]]"
                            ),
                        ))
                    }
                },
                Part::Run => s.run.push(Setting { key, value, line }),
                Part::Grid => match value {
                    Value::List(v) if !v.is_empty() => s.grid.push((key, v, line)),
                    other => {
                        return Err(err(
                            line,
                            format!(
                                "{key}: a grid axis is a list of values, e.g. [0.65, 0.8]; found {}",
                                other.kind()
                            ),
                        ))
                    }
                },
                Part::Row => s
                    .rows
                    .last_mut()
                    .expect("a row section was opened")
                    .push(Setting { key, value, line }),
            }
        }
        if s.game.is_empty() {
            return Err(err(
                1,
                "no game = \"...\" line (game = \"blackjack\")".into(),
            ));
        }
        if s.title.is_empty() {
            s.title = std::path::Path::new(file)
                .file_stem()
                .map(|f| f.to_string_lossy().to_string())
                .unwrap_or_else(|| "study".into());
        }
        Ok(s)
    }

    /// Every cell: each row (or one empty row) crossed with every point of the grid, in the
    /// file's order (the last axis varying fastest); a key set twice for one cell is refused.
    /// `rounds`, when given, replaces every cell's rounds (a reduced run of the same study).
    pub fn cells(&self, command: &[&str], rounds: Option<&str>) -> Result<Vec<Cell>, StudyError> {
        let n_rows = self.rows.len().max(1);
        let total = self
            .grid
            .iter()
            .try_fold(n_rows, |n, (_, v, _)| n.checked_mul(v.len()))
            .filter(|&n| n <= MAX_CELLS)
            .ok_or_else(|| {
                StudyError::File(format!(
                    "{}: more than {MAX_CELLS} cells: split the study",
                    self.file
                ))
            })?;
        let empty = Vec::new();
        let mut cells = Vec::with_capacity(total);
        for i in 0..total {
            let row = self.rows.get(i / (total / n_rows)).unwrap_or(&empty);
            let mut rest = i % (total / n_rows);
            let mut point = Vec::new();
            for (key, values, line) in self.grid.iter().rev() {
                point.push(Setting {
                    key: key.clone(),
                    value: values[rest % values.len()].clone(),
                    line: *line,
                });
                rest /= values.len();
            }
            point.reverse();
            let mut settings: Vec<Setting> = Vec::new();
            for s in self.run.iter().chain(row).chain(&point) {
                if let Some(first) = settings.iter().find(|t| t.key == s.key) {
                    return Err(StudyError::File(format!(
                        "{}:{}: {} is set twice for cell {} (also on line {}): set it in one place",
                        self.file,
                        s.line,
                        s.key,
                        i + 1,
                        first.line
                    )));
                }
                settings.push(s.clone());
            }
            if let Some(r) = rounds {
                let value = Value::Num(f64::NAN, r.to_string());
                match settings.iter_mut().find(|s| s.key == "rounds") {
                    Some(s) => s.value = value,
                    None => settings.push(Setting {
                        key: "rounds".into(),
                        value,
                        line: 0,
                    }),
                }
            }
            if !settings.iter().any(|s| s.key == "rounds") {
                return Err(StudyError::File(format!(
                    "{}: cell {} has no rounds: a study states its size (rounds = 200000 under [run])",
                    self.file,
                    i + 1
                )));
            }
            let words = command
                .iter()
                .map(|w| w.to_string())
                .chain(settings.iter().flat_map(Setting::words))
                .collect();
            cells.push(Cell {
                n: i + 1,
                settings,
                words,
            });
        }
        Ok(cells)
    }
}

/// The labels of `cells`: what differs, and what every cell shares.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Labels {
    /// The keys whose values differ between cells, in order of first appearance.
    pub axes: Vec<String>,
    /// Each cell's values of the axes ("—" where a cell does not set one).
    pub values: Vec<Vec<String>>,
    /// Each cell's label: the axes it sets, `key value` joined by ", " (a cell that sets none
    /// of them: "the shared settings only").
    pub labels: Vec<String>,
    /// The settings every cell has alike, stated once.
    pub shared: Vec<(String, String)>,
}

/// Name only what differs between the items (each a list of settings as `(key, value)`), the
/// shared part stated once. Keys keep the order in which they first appear.
pub fn labels(items: &[Vec<(String, String)>]) -> Labels {
    let mut keys: Vec<String> = Vec::new();
    for it in items {
        for (k, _) in it {
            if !keys.contains(k) {
                keys.push(k.clone());
            }
        }
    }
    let value = |it: &Vec<(String, String)>, k: &str| {
        it.iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_else(|| "—".into())
    };
    let (mut axes, mut shared) = (Vec::new(), Vec::new());
    for k in keys {
        let first = items.first().map(|it| value(it, &k)).unwrap_or_default();
        if items.len() > 1 && items.iter().any(|it| value(it, &k) != first) {
            axes.push(k);
        } else {
            shared.push((k, first));
        }
    }
    let values: Vec<Vec<String>> = items
        .iter()
        .map(|it| axes.iter().map(|k| value(it, k)).collect())
        .collect();
    let labels = values
        .iter()
        .map(|v| {
            let set: Vec<String> = axes
                .iter()
                .zip(v)
                .filter(|(_, v)| *v != "—")
                .map(|(k, v)| format!("{k} {v}"))
                .collect();
            match (axes.is_empty(), set.is_empty()) {
                (true, _) => "all cells alike".to_string(),
                (false, true) => "the shared settings only".to_string(),
                (false, false) => set.join(", "),
            }
        })
        .collect();
    Labels {
        axes,
        values,
        labels,
        shared,
    }
}

/// The labels of a study's cells.
pub fn cell_labels(cells: &[Cell]) -> Labels {
    let items: Vec<Vec<(String, String)>> = cells
        .iter()
        .map(|c| {
            c.settings
                .iter()
                .map(|s| (s.key.clone(), s.shown()))
                .collect()
        })
        .collect();
    labels(&items)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = "game = \"blackjack\"\n[grid]\npenetration = [0.65, 0.8]\ncount = [\"hi-lo\", \"ko\"]\n[run]\nrounds = 200000\n";

    #[test]
    fn the_grid_is_crossed_in_order_and_cells_are_command_lines() {
        let s = StudyFile::parse(EXAMPLE, "mine.toml").unwrap();
        let cells = s.cells(&["sim", "blackjack"], None).unwrap();
        assert_eq!(cells.len(), 4);
        assert_eq!(
            cells[1].words.join(" "),
            "sim blackjack --rounds 200000 --penetration 0.65 --count ko"
        );
        assert_eq!(
            cells[2].words.join(" "),
            "sim blackjack --rounds 200000 --penetration 0.8 --count hi-lo"
        );
        let l = cell_labels(&cells);
        assert_eq!(l.axes, ["penetration", "count"]);
        assert_eq!(l.labels[3], "penetration 0.8, count ko");
        assert_eq!(l.shared, [("rounds".to_string(), "200000".to_string())]);
    }

    #[test]
    fn rows_cross_the_grid_and_flags_are_words() {
        let text = "game = \"blackjack\"\n[run]\nrounds = 1000\n[[rows]]\ntable = \"tables/seed.toml\"\n[[rows]]\ntable = \"tables/6d-h17.toml\"\ndas = true\n[grid]\ncount = [\"hi-lo\", \"ko\", \"halves\"]\n";
        let s = StudyFile::parse(text, "s.toml").unwrap();
        let cells = s.cells(&["sim", "blackjack"], None).unwrap();
        assert_eq!(cells.len(), 6);
        assert_eq!(
            cells[4].words.join(" "),
            "sim blackjack --rounds 1000 --table tables/6d-h17.toml --das --count ko"
        );
        let l = cell_labels(&cells);
        assert_eq!(l.labels[0], "table seed, count hi-lo");
        assert_eq!(l.labels[5], "table 6d-h17, count halves, das true");
    }

    #[test]
    fn bad_study_files_name_the_line() {
        let e = |t: &str| match StudyFile::parse(t, "f.toml") {
            Err(e) => e.to_string(),
            Ok(s) => s
                .cells(&["sim", "blackjack"], None)
                .unwrap_err()
                .to_string(),
        };
        assert!(e("[run]\nrounds = 1\n").contains("f.toml:1: no game"));
        assert!(e("game = \"blackjack\"\n[grid]\ncount = \"ko\"\n")
            .contains("f.toml:3: count: a grid axis is a list"));
        assert!(e("game = \"blackjack\"\n[run]\nout-dir = \"x\"\n")
            .contains("f.toml:3: out-dir: not a setting"));
        assert!(e("game = \"blackjack\"\n[cells]\n").contains("f.toml:2: unknown section"));
        assert!(
            e("game = \"blackjack\"\n[run]\nrounds = 5\n[grid]\nrounds = [1, 2]\n")
                .contains("f.toml:5: rounds is set twice")
        );
        assert!(e("game = \"blackjack\"\n[grid]\ncount = [\"ko\"]\n").contains("has no rounds"));
    }

    #[test]
    fn labels_name_what_differs_and_state_the_rest_once() {
        let it = |v: &[(&str, &str)]| {
            v.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect::<Vec<_>>()
        };
        let l = labels(&[
            it(&[
                ("count", "Hi-Lo"),
                ("ramp", "0:1,1:2,2:4,3:8"),
                ("penetration", "0.5"),
            ]),
            it(&[
                ("count", "Hi-Lo"),
                ("ramp", "0:1,1:2,2:4,3:8"),
                ("penetration", "0.85"),
            ]),
        ]);
        assert_eq!(l.labels, ["penetration 0.5", "penetration 0.85"]);
        assert_eq!(l.shared.len(), 2);
        let one = labels(&[it(&[("count", "ko")])]);
        assert_eq!(one.labels, ["all cells alike"]);
    }
}
