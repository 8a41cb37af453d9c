//! Count systems as data: tags per value (the built-ins, or a tag file), balanced or not, and
//! the running count a shoe starts from.

use serde::{Deserialize, Serialize};

use crate::cards::{value, Rank};

/// Tags by value, ace first (A, 2, …, 9, T), in units of `1 / scale`.
pub type Tags = [i8; 10];

/// The built-in systems: (command-line name, report name, tags, scale).
pub const BUILT_IN: [(&str, &str, Tags, u8); 7] = [
    ("hi-lo", "Hi-Lo", [-1, 1, 1, 1, 1, 1, 0, 0, 0, -1], 1),
    ("ko", "KO", [-1, 1, 1, 1, 1, 1, 1, 0, 0, -1], 1),
    ("hi-opt-1", "Hi-Opt I", [0, 0, 1, 1, 1, 1, 0, 0, 0, -1], 1),
    ("hi-opt-2", "Hi-Opt II", [0, 1, 1, 2, 2, 1, 1, 0, 0, -2], 1),
    ("omega-2", "Omega II", [0, 1, 1, 2, 2, 2, 1, 0, -1, -2], 1),
    ("zen", "Zen", [-1, 1, 1, 2, 2, 2, 1, 0, 0, -2], 1),
    (
        "halves",
        "Wong Halves",
        [-2, 1, 2, 2, 3, 2, 1, 0, -1, -2],
        2,
    ),
];

/// A count system: tags per value (×`scale`, so Wong Halves' halves are integers).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CountSystem {
    /// Its name in reports (a built-in's name or a tag file's path): not part of a run's
    /// identity.
    pub label: String,
    pub tags: Tags,
    /// The tags are in units of 1/scale (2 for Wong Halves).
    pub scale: u8,
}

/// A bad count system, ramp or counting option.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum CountError {
    #[error("unknown count '{0}': expected hi-lo, ko, hi-opt-1, hi-opt-2, omega-2, zen, halves, or the path of a tag file (lines 'rank,tag', e.g. 'T,-1'; see strategies/counts/)")]
    Unknown(String),
    #[error("{file}{}: {msg}", at_line(.line))]
    File {
        file: String,
        line: usize,
        msg: String,
    },
    /// A count or ramp file that cannot be read (the message names it).
    #[error("{0}")]
    Input(String),
    #[error("--ramp '{0}': {1} (expected e.g. \"0:1,1:2,2:4,3:8,4:12\": true count:units, sorted by true count)")]
    Ramp(String, String),
    #[error("--wong-out {out} is above --wong-in {win}: a seat that enters at {win} would leave at once")]
    WongOrder { win: i32, out: i32 },
    #[error("{0}")]
    Option(String),
}

/// `:line` of a file error, nothing for an error of the file as a whole (line 0).
fn at_line(line: &usize) -> String {
    if *line > 0 {
        format!(":{line}")
    } else {
        String::new()
    }
}

/// The count a strategy file says it was made for: the `# count: NAME (...)` line of a ramp
/// file from `strategies ramp`, or the `# count NAME (...)` line of an index file from
/// `strategies indices`. `None` when its header names none.
pub fn made_for(text: &str) -> Option<&str> {
    text.lines()
        .take_while(|l| l.trim_start().starts_with('#'))
        .find_map(|l| {
            let rest = l
                .trim_start_matches('#')
                .trim_start()
                .strip_prefix("count")?;
            let rest = rest.strip_prefix(':').unwrap_or(rest);
            let name = rest.trim().split(" (").next()?.trim();
            (!name.is_empty() && !rest.starts_with(':')).then_some(name)
        })
}

/// Why a ramp or index set (`arg` of the flag `flag`: a file, a built-in index set, or several
/// joined by '+') does not fit `system`: it was made for another count, whose numbers mean
/// other things here. `None` when it fits or says nothing of its count.
pub fn foreign_to(system: &CountSystem, flag: &str, arg: &str) -> Option<String> {
    let parts: Vec<&str> = match flag {
        "--indices" => arg.split('+').map(str::trim).collect(),
        _ => vec![arg],
    };
    let found = parts.iter().find_map(|part| {
        let count = match *part {
            // The shipped sets are the published Hi-Lo numbers.
            "i18" | "fab4" if flag == "--indices" => "Hi-Lo".to_string(),
            _ => {
                let path = std::path::Path::new(part);
                let text =
                    crate::door::input::read_text(path, "file", crate::door::input::MAX_TEXT_BYTES)
                        .ok()?;
                made_for(&text)?.to_string()
            }
        };
        (count != system.label).then(|| (part.to_string(), count))
    })?;
    Some(format!(
        "{flag} {} was made for {}, and this run counts with {}: its counts mean other things \
         under this count (`rtplab strategies {}` makes one for it)",
        found.0,
        found.1,
        system.label,
        if flag == "--indices" {
            "indices blackjack --count ..."
        } else {
            "ramp blackjack --count ..."
        }
    ))
}

impl CountSystem {
    /// A built-in system by its command-line name, or a tag file.
    pub fn resolve(name: &str) -> Result<CountSystem, CountError> {
        if let Some(b) = BUILT_IN.iter().find(|b| b.0 == name) {
            return Ok(CountSystem {
                label: b.1.into(),
                tags: b.2,
                scale: b.3,
            });
        }
        let path = std::path::Path::new(name);
        if !path.exists() {
            return Err(CountError::Unknown(name.into()));
        }
        let text =
            crate::door::input::read_text(path, "count file", crate::door::input::MAX_TEXT_BYTES)
                .map_err(|e| CountError::Input(e.to_string()))?;
        CountSystem::parse(&text, name)
    }

    /// A tag file: `rank,tag` lines (ranks A, 2–9, T; tags integers or halves such as 0.5,
    /// -1.5); `#` starts a comment; every rank must be given once.
    pub fn parse(text: &str, file: &str) -> Result<CountSystem, CountError> {
        let err = |line: usize, msg: String| CountError::File {
            file: file.into(),
            line,
            msg,
        };
        let mut halves: [Option<i32>; 10] = [None; 10];
        for (i, raw) in text.lines().enumerate() {
            let line = raw.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let Some((r, t)) = line.split_once(',') else {
                return Err(err(
                    i + 1,
                    format!("'{}': expected 'rank,tag'", crate::door::input::quote(line)),
                ));
            };
            let (r, t) = (r.trim(), t.trim());
            if r.eq_ignore_ascii_case("rank") {
                continue; // a header
            }
            let v = match r {
                "A" | "a" | "1" => 1,
                "T" | "t" | "10" | "J" | "Q" | "K" => 10,
                d if d.len() == 1 && ("2"..="9").contains(&d) => d.parse::<usize>().unwrap_or(0),
                _ => return Err(err(i + 1, format!("rank '{r}': expected A, 2–9 or T"))),
            };
            let x: f64 = t
                .parse()
                .map_err(|_| err(i + 1, format!("tag '{t}': not a number")))?;
            let h = x * 2.0;
            if h.fract() != 0.0 || h.abs() > 20.0 {
                return Err(err(
                    i + 1,
                    format!("tag '{t}': expected a whole or half number from -10 to 10"),
                ));
            }
            if halves[v - 1].is_some() {
                return Err(err(i + 1, format!("rank {r} is given twice")));
            }
            halves[v - 1] = Some(h as i32);
        }
        let mut h = [0i32; 10];
        for (i, x) in halves.iter().enumerate() {
            h[i] = x.ok_or_else(|| {
                err(
                    0,
                    format!("no tag for rank {}", crate::cards::value_char(i as u8 + 1)),
                )
            })?;
        }
        let whole = h.iter().all(|x| x % 2 == 0);
        let scale = if whole { 1 } else { 2 };
        let tags = h.map(|x| (if whole { x / 2 } else { x }) as i8);
        Ok(CountSystem {
            label: file.into(),
            tags,
            scale,
        })
    }

    /// The sum of the tags over one deck, in tag units (0 for a balanced count; KO: +4).
    pub fn deck_sum(&self) -> i32 {
        self.tags
            .iter()
            .enumerate()
            .map(|(i, &t)| t as i32 * if i == 9 { 16 } else { 4 })
            .sum()
    }

    pub fn balanced(&self) -> bool {
        self.deck_sum() == 0
    }

    /// The running count at the start of a shoe of `decks`, in tag units: 0 for a balanced
    /// count; an unbalanced one starts at `s − s·decks` (s = its deck sum: KO's 4 − 4·decks),
    /// so that its key count is reached as in the books.
    pub fn initial(&self, decks: u32) -> i32 {
        let s = self.deck_sum();
        s - s * decks as i32
    }

    /// The tag of each rank (0..13), in tag units.
    pub fn by_rank(&self) -> [i8; 13] {
        std::array::from_fn(|r| self.tags[value(r as Rank) as usize - 1])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_made_for_another_count_is_told_apart() {
        let ramp = "# rtplab optimal bet ramp\n# count: Hi-Lo (true count: exact, floor), ramp 0:1\n-10:1\n";
        assert_eq!(super::made_for(ramp), Some("Hi-Lo"));
        let ix =
            "# rtplab index plays\n# count Wong Halves (true count, floor rounding), chart basic\n";
        assert_eq!(super::made_for(ix), Some("Wong Halves"));
        assert_eq!(super::made_for("0:1,1:2"), None);
        let halves = CountSystem::resolve("halves").unwrap();
        let hilo = CountSystem::resolve("hi-lo").unwrap();
        let w = super::foreign_to(&halves, "--indices", "i18+fab4").unwrap();
        assert!(
            w.contains("made for Hi-Lo") && w.contains("Wong Halves"),
            "{w}"
        );
        assert_eq!(super::foreign_to(&hilo, "--indices", "i18+fab4"), None);
        assert_eq!(super::foreign_to(&halves, "--ramp", "0:1,2:4"), None);
    }

    #[test]
    fn balanced_systems_sum_to_zero_and_ko_to_four() {
        for (name, _, _, _) in BUILT_IN {
            let s = CountSystem::resolve(name).unwrap();
            let want = if name == "ko" { 4 } else { 0 };
            assert_eq!(s.deck_sum(), want, "{name}");
            assert_eq!(s.balanced(), name != "ko");
        }
        let ko = CountSystem::resolve("ko").unwrap();
        assert_eq!(ko.initial(8), 4 - 32);
        assert_eq!(ko.initial(1), 0);
        // Over a whole shoe, KO ends at 4 (its key count's anchor) from 4 − 4·decks.
        assert_eq!(ko.initial(6) + 6 * ko.deck_sum(), 4);
        let halves = CountSystem::resolve("halves").unwrap();
        assert_eq!(halves.scale, 2);
        assert_eq!(halves.by_rank()[4], 3); // a 5 is +1.5
    }

    #[test]
    fn the_shipped_tag_files_are_the_built_ins() {
        for (name, _, tags, scale) in BUILT_IN {
            let path = format!(
                "{}/strategies/counts/{name}.csv",
                env!("CARGO_MANIFEST_DIR")
            );
            let s = CountSystem::resolve(&path).unwrap();
            assert_eq!((s.tags, s.scale), (tags, scale), "{name}");
        }
    }

    #[test]
    fn tag_file_errors() {
        let ok = "# hi-lo\nA,-1\n2,1\n3,1\n4,1\n5,1\n6,1\n7,0\n8,0\n9,0\nT,-1\n";
        assert_eq!(CountSystem::parse(ok, "f").unwrap().tags, BUILT_IN[0].2);
        let e = CountSystem::parse("A,-1\nA,1\n", "f")
            .unwrap_err()
            .to_string();
        assert!(e.contains("twice"), "{e}");
        let e = CountSystem::parse("A,-1\n", "f").unwrap_err().to_string();
        assert!(e.contains("no tag for rank 2"), "{e}");
        let e = CountSystem::parse("X,1\n", "f").unwrap_err().to_string();
        assert!(e.contains("f:1"), "{e}");
        // Errors name their line: the third here (a comment and a good line before it).
        let e = CountSystem::parse("# c\nA,-1\nbogus\n", "f")
            .unwrap_err()
            .to_string();
        assert!(e.starts_with("f:3: 'bogus'"), "{e}");
        for (text, want) in [("A,-1\nX,1\n", "f:2: rank"), ("A,-1\n2,0.3\n", "f:2: tag")] {
            let e = CountSystem::parse(text, "f").unwrap_err().to_string();
            assert!(e.starts_with(want), "{e}");
        }
        let e = CountSystem::parse("A,0.3\n", "f").unwrap_err().to_string();
        assert!(e.contains("half"), "{e}");
        assert!(CountSystem::resolve("no-such-count").is_err());
    }
}
