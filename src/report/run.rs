//! What every simulation report says about its run: `RunMeta` (seed, threads, time, shard,
//! interruption) and `RunHeader`, the keys every simulation model starts with.

use serde::Serialize;

use super::{count, plural, Report};

/// How a run went (every game): its seed, starting seat (dice games), time, threads, shards
/// merged, and completeness.
#[derive(Clone, Debug, Default)]
pub struct RunMeta {
    pub seed: u64,
    /// 0-based; `None`: the starting seat rotated game by game.
    pub start_seat: Option<usize>,
    pub elapsed_s: f64,
    /// The set-up of the run's shared state before it (solves of Doom strategies, the
    /// blackjack pilot), not in `elapsed_s`; 0 for a merged run. A blackjack chart derived
    /// for the rules is made before the run is set up and is not in it.
    pub setup_s: f64,
    /// 0 for a merged run.
    pub threads: usize,
    /// Shard files a merged run was merged from (0: not merged).
    pub merged_from: usize,
    pub interrupted: bool,
    pub chunks_done: u64,
    /// Chunks of the whole run.
    pub chunks_planned: u64,
    /// The shard this run was (`None`: the whole run, or a merge of all shards).
    pub shard: Option<crate::shard::ShardSpec>,
    /// Global chunks covered `[start, end)`.
    pub chunk_range: [u64; 2],
    /// A run resumed from its shard file's checkpoint: the global chunk it went on from.
    pub resumed_from_chunk: Option<u64>,
    /// The shard file was already complete: the run was read from it, not recomputed.
    pub already_complete: bool,
    /// An interrupted run whose shard file was written: running it again resumes it.
    pub resumable: bool,
}

impl RunMeta {
    /// The meta of a finished (or interrupted) run of `out.chunks_planned` chunks.
    pub fn of<A>(seed: u64, out: &crate::engine::RunOutcome<A>) -> RunMeta {
        RunMeta {
            seed,
            elapsed_s: out.elapsed.as_secs_f64(),
            threads: out.threads,
            interrupted: out.interrupted,
            chunks_done: out.chunks_done,
            chunks_planned: out.chunks_planned,
            chunk_range: [0, out.chunks_planned],
            ..RunMeta::default()
        }
    }

    pub fn starting_seat(&self) -> String {
        self.start_seat
            .map_or("rotates game by game".into(), |s| (s + 1).to_string())
    }

    /// `setup_s` for a report's JSON: none for a merged run (its shards' set-ups are not
    /// kept).
    pub fn setup_json(&self) -> Option<f64> {
        (self.merged_from == 0).then_some(self.setup_s)
    }

    /// "INTERRUPTED: k of n chunks completed" for an interrupted run.
    pub fn marker(&self) -> Option<String> {
        self.interrupted.then(|| {
            format!(
                "INTERRUPTED: {} of {} chunks completed",
                self.chunks_done, self.chunks_planned
            )
        })
    }

    /// "12.34 s on 2 threads, 1,234 rounds/s" for `work` items of `unit` done, and the set-up
    /// before the run when it took a noticeable time (a solve can take minutes).
    pub fn elapsed_text(&self, work: u64, unit: &str) -> String {
        format!(
            "{}, {} {unit}/s{}",
            self.time_text(),
            count(self.per_second(work) as u64),
            self.setup_clause()
        )
    }

    /// "12.34 s on 2 threads" (or "merged from 4 shards").
    fn time_text(&self) -> String {
        format!(
            "{:.2} s {}",
            self.elapsed_s,
            where_run(self.threads, self.merged_from)
        )
    }

    /// `work` items per second of `elapsed_s`.
    pub fn per_second(&self, work: u64) -> f64 {
        work as f64 / self.elapsed_s.max(1e-9)
    }

    /// "; set-up before it 4.12 s, not in that time" when the set-up took a noticeable time
    /// (a twentieth of a second or more), else empty.
    pub fn setup_clause(&self) -> String {
        if self.setup_s >= 0.05 {
            format!("; set-up before it {:.2} s, not in that time", self.setup_s)
        } else {
            String::new()
        }
    }

    /// The report's "elapsed" line (with `work` items of `unit` done, e.g. turns or games)
    /// and, if the run was interrupted, its "status" line and the note saying what the figures
    /// cover.
    pub fn annotate(&self, r: &mut Report, work: u64, unit: &str) {
        self.annotate_with(r, self.elapsed_text(work, unit));
    }

    /// [`annotate`](Self::annotate) for a run without one count of work (a comparison): the
    /// elapsed line gives the time, threads and set-up, no pace.
    pub fn annotate_without_pace(&self, r: &mut Report) {
        self.annotate_with(r, self.time_text() + &self.setup_clause());
    }

    fn annotate_with(&self, r: &mut Report, elapsed: String) {
        r.meta.push(("elapsed".into(), elapsed));
        if let Some(m) = self.marker() {
            r.notes
                .push(format!("{m}; the figures cover the completed chunks only."));
            // In the metadata too, so that every file of --out-dir (CSV, SVG) carries it.
            r.meta.push(("status".into(), m));
        }
    }
}

/// The keys every simulation's JSON document has at its top level: the game, how the run went
/// (seed, starting seat, time, threads, completeness) and its pace. Each game's simulation
/// model flattens it (`#[serde(flatten)]`) beside its own figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RunHeader {
    pub game: &'static str,
    pub seed: u64,
    /// Games played in seats: 1-based, or `Some(None)` (null) when the starting seat rotated
    /// game by game; `None` (no key): the game has no seats (or a run of single turns).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub starting_seat: Option<Option<usize>>,
    pub elapsed_s: f64,
    /// The set-up before the run, not in `elapsed_s` (`RunMeta::setup_s`); none if merged.
    pub setup_s: Option<f64>,
    pub threads: usize,
    pub interrupted: bool,
    /// The run's pace, under the game's own key.
    #[serde(flatten)]
    pub pace: PerSecond,
}

impl RunHeader {
    /// The header of `run`, a run of `game` that did `work` items (rounds, coups, turns,
    /// games) in its time; `pace_key` names the pace (`rounds_per_s`, ...).
    pub fn of(game: &'static str, run: &RunMeta, work: u64, pace_key: &'static str) -> RunHeader {
        RunHeader {
            game,
            seed: run.seed,
            starting_seat: None,
            elapsed_s: run.elapsed_s,
            setup_s: run.setup_json(),
            threads: run.threads,
            interrupted: run.interrupted,
            pace: PerSecond {
                key: pace_key,
                value: run.per_second(work),
            },
        }
    }

    /// The same header for games played in seats: with `run`'s starting seat.
    pub fn with_seats(self, run: &RunMeta) -> RunHeader {
        RunHeader {
            starting_seat: Some(run.start_seat.map(|s| s + 1)),
            ..self
        }
    }
}

/// Work done per second of a run, written as one key, `key` (`rounds_per_s`, `coups_per_s`,
/// `turns_per_s`, `games_per_s`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PerSecond {
    pub key: &'static str,
    pub value: f64,
}

impl Serialize for PerSecond {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(1))?;
        m.serialize_entry(self.key, &self.value)?;
        m.end()
    }
}

/// Where a run ran, for the elapsed line: "on 1 thread", "on 2 threads", or for a merged
/// run (no single thread count) "merged from 4 shards".
pub fn where_run(threads: usize, merged_from: usize) -> String {
    if merged_from > 0 {
        format!("merged from {}", plural(merged_from as u64, "shard"))
    } else {
        format!("on {}", plural(threads as u64, "thread"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn run_meta_lines_and_notes() {
        let out = crate::engine::RunOutcome {
            acc: (),
            chunks_done: 3,
            chunks_planned: 8,
            interrupted: true,
            elapsed: std::time::Duration::from_millis(2000),
            threads: 2,
        };
        let m = RunMeta {
            start_seat: Some(0),
            ..RunMeta::of(9, &out)
        };
        assert_eq!(
            (m.seed, m.threads, m.merged_from, m.elapsed_s),
            (9, 2, 0, 2.0)
        );
        assert_eq!(
            (m.chunks_done, m.chunks_planned, m.interrupted),
            (3, 8, true)
        );
        // A whole run's chunks (a shard's own range is set by the one that runs it).
        assert_eq!(m.chunk_range, [0, 8]);
        assert_eq!(m.starting_seat(), "1");
        let mut r = Report::default();
        m.annotate(&mut r, 3000, "games");
        assert_eq!(
            r.meta,
            vec![
                (
                    "elapsed".to_string(),
                    "2.00 s on 2 threads, 1,500 games/s".to_string()
                ),
                (
                    "status".to_string(),
                    "INTERRUPTED: 3 of 8 chunks completed".to_string()
                ),
            ]
        );
        assert_eq!(
            r.notes,
            ["INTERRUPTED: 3 of 8 chunks completed; the figures cover the completed chunks only."]
        );
        // A comparison's line: no pace; the same status and note.
        let mut c = Report::default();
        m.annotate_without_pace(&mut c);
        assert_eq!(c.meta[0].1, "2.00 s on 2 threads");
        assert_eq!((&c.meta[1], &c.notes), (&r.meta[1], &r.notes));
        assert_eq!(m.setup_json(), Some(m.setup_s));
        let whole = RunMeta {
            start_seat: None,
            interrupted: false,
            elapsed_s: 0.0,
            merged_from: 4,
            ..m
        };
        assert_eq!(whole.starting_seat(), "rotates game by game");
        assert_eq!(whole.marker(), None);
        assert_eq!(whole.setup_json(), None);
        let mut r = Report::default();
        whole.annotate(&mut r, 3, "turns");
        assert_eq!(
            r.meta,
            vec![(
                "elapsed".to_string(),
                "0.00 s merged from 4 shards, 3,000,000,000 turns/s".to_string()
            )]
        );
        assert!(r.notes.is_empty());
        // A setup of a twentieth of a second or more (a solve) is stated beside it, apart.
        let solved = RunMeta {
            setup_s: 146.0,
            ..whole.clone()
        };
        assert_eq!(
            solved.elapsed_text(3, "turns"),
            "0.00 s merged from 4 shards, 3,000,000,000 turns/s; set-up before it 146.00 s, not in that time"
        );
        let quick = RunMeta {
            setup_s: 0.049,
            ..whole
        };
        assert!(!quick.elapsed_text(3, "turns").contains("set-up"));
    }

    /// The header's keys: the pace under its own name, the starting seat only for games in
    /// seats (null when it rotated).
    #[test]
    fn run_headers_write_their_keys_flat() {
        let run = RunMeta {
            seed: 3,
            elapsed_s: 2.0,
            setup_s: 0.5,
            threads: 2,
            ..RunMeta::default()
        };
        let h = RunHeader::of("g", &run, 10, "turns_per_s");
        assert_eq!(
            serde_json::to_value(&h).unwrap(),
            serde_json::json!({"game": "g", "seed": 3, "elapsed_s": 2.0, "setup_s": 0.5,
                "threads": 2, "interrupted": false, "turns_per_s": 5.0})
        );
        let seats = serde_json::to_value(h.clone().with_seats(&run)).unwrap();
        assert!(seats["starting_seat"].is_null() && seats.get("starting_seat").is_some());
        let first = RunMeta {
            start_seat: Some(0),
            ..run
        };
        assert_eq!(
            serde_json::to_value(h.with_seats(&first)).unwrap()["starting_seat"],
            1
        );
    }
}
