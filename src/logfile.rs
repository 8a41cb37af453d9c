//! Round logs on disk: JSON Lines, one record a line, plain or compressed.
//!
//! A log is written through the door as a stream ([`Encoder`]: gzip when the name ends `.gz`,
//! Zstandard when it ends `.zst`, plain otherwise) and read back a line at a time
//! ([`Lines`]: the compression is known by the file's first bytes, whatever its name; a
//! Zstandard file of several frames, as `zstd` and rtplab write, is read whole). Memory is
//! bounded by the longest line ([`MAX_LINE_BYTES`]), never by the log. Each record is
//! parsed into its typed struct with the path of a field that is wrong ([`parse`]), so an
//! error names the line and the field.
//!
//! Cards are written as two characters, rank then suit: `A 2 … 9 T J Q K` and `c d h s`
//! (`Ah`, `Td`; `10d` is read as `Td`).

use std::io::{BufRead, Read, Write};

use serde::de::DeserializeOwned;

use crate::cards::Rank;

/// The longest line a log may have (a round of seven seats with every split is far shorter).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Zstandard frames are cut at this much plain text (a frame is compressed whole).
const ZSTD_FRAME: usize = 4 << 20;

/// How a log's bytes are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    Plain,
    Gzip,
    Zstd,
}

impl Compression {
    /// The compression a log written under `name` gets: by its ending.
    pub fn of_name(name: &std::ffi::OsStr) -> Compression {
        let n = name.as_encoded_bytes();
        if n.ends_with(b".gz") {
            Compression::Gzip
        } else if n.ends_with(b".zst") {
            Compression::Zstd
        } else {
            Compression::Plain
        }
    }

    /// The compression of bytes starting with `head`: by their magic number.
    pub fn of_head(head: &[u8]) -> Compression {
        if head.starts_with(&[0x1f, 0x8b]) {
            Compression::Gzip
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Compression::Zstd
        } else {
            Compression::Plain
        }
    }
}

/// A writer that compresses what it is given and must be finished (the compressed stream's
/// end written).
pub struct Encoder<'a> {
    inner: EncoderKind<'a>,
}

enum EncoderKind<'a> {
    Plain(&'a mut dyn Write),
    Gzip(flate2::write::GzEncoder<&'a mut dyn Write>),
    Zstd {
        out: &'a mut dyn Write,
        pending: Vec<u8>,
    },
}

impl<'a> Encoder<'a> {
    pub fn new(c: Compression, out: &'a mut dyn Write) -> Encoder<'a> {
        let inner = match c {
            Compression::Plain => EncoderKind::Plain(out),
            Compression::Gzip => EncoderKind::Gzip(flate2::write::GzEncoder::new(
                out,
                flate2::Compression::fast(),
            )),
            Compression::Zstd => EncoderKind::Zstd {
                out,
                pending: Vec::with_capacity(ZSTD_FRAME),
            },
        };
        Encoder { inner }
    }

    /// Write the end of the compressed stream.
    pub fn finish(self) -> std::io::Result<()> {
        match self.inner {
            EncoderKind::Plain(w) => w.flush(),
            EncoderKind::Gzip(g) => g.finish()?.flush(),
            EncoderKind::Zstd { out, pending } => {
                zstd_frame(out, &pending)?;
                out.flush()
            }
        }
    }
}

/// One Zstandard frame of `plain` (nothing for nothing).
fn zstd_frame(out: &mut dyn Write, plain: &[u8]) -> std::io::Result<()> {
    if plain.is_empty() {
        return Ok(());
    }
    let frame =
        ruzstd::encoding::compress_to_vec(plain, ruzstd::encoding::CompressionLevel::Fastest);
    out.write_all(&frame)
}

impl Write for Encoder<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.inner {
            EncoderKind::Plain(w) => w.write(buf),
            EncoderKind::Gzip(g) => g.write(buf),
            EncoderKind::Zstd { out, pending } => {
                pending.extend_from_slice(buf);
                if pending.len() >= ZSTD_FRAME {
                    zstd_frame(&mut **out, pending)?;
                    pending.clear();
                }
                Ok(buf.len())
            }
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.inner {
            EncoderKind::Plain(w) => w.flush(),
            EncoderKind::Gzip(g) => g.flush(),
            EncoderKind::Zstd { .. } => Ok(()),
        }
    }
}

/// A reader of a Zstandard stream of any number of frames.
struct ZstdFrames<R: BufRead> {
    dec: Option<ruzstd::decoding::StreamingDecoder<R, ruzstd::decoding::FrameDecoder>>,
}

impl<R: BufRead> ZstdFrames<R> {
    fn new(src: R) -> std::io::Result<ZstdFrames<R>> {
        let dec = ruzstd::decoding::StreamingDecoder::new(src).map_err(std::io::Error::other)?;
        Ok(ZstdFrames { dec: Some(dec) })
    }
}

impl<R: BufRead> Read for ZstdFrames<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            let Some(dec) = self.dec.as_mut() else {
                return Ok(0);
            };
            let n = dec.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            // The frame ended: another follows, or the stream ends.
            let (mut src, frame) = self.dec.take().expect("a decoder").into_parts();
            if src.fill_buf()?.is_empty() {
                return Ok(0);
            }
            // (`new_with_decoder` reads the next frame's header.)
            self.dec = Some(
                ruzstd::decoding::StreamingDecoder::new_with_decoder(src, frame)
                    .map_err(std::io::Error::other)?,
            );
        }
    }
}

/// Counts the bytes read through it (the compressed bytes: a log's progress by its size).
pub struct Counted<R> {
    inner: R,
    pub bytes: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bytes
            .fetch_add(n as u64, std::sync::atomic::Ordering::Relaxed);
        Ok(n)
    }
}

/// Why a log could not be read: where, and what to do.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum LogError {
    #[error("{log}: cannot read it ({why})")]
    Io { log: String, why: String },
    #[error("{log} line {line}: longer than {max} bytes; a round log has one record a line")]
    LongLine { log: String, line: u64, max: usize },
    #[error("{log} line {line}: not UTF-8 text; a round log is JSON Lines")]
    NotText { log: String, line: u64 },
    #[error("{log} line {line}{field}: {why}")]
    Record {
        log: String,
        line: u64,
        /// `, field NAME` when the error is in a field.
        field: String,
        why: String,
    },
    #[error("{log}: empty; a round log starts with its header line")]
    Empty { log: String },
}

/// A log read a line at a time (blank lines skipped), decompressed as its first bytes say.
pub struct Lines {
    log: String,
    reader: Box<dyn BufRead>,
    line: u64,
    buf: Vec<u8>,
    /// Compressed bytes read so far.
    pub read: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl Lines {
    /// Read `src` (named `log` in messages).
    pub fn new(log: &str, src: impl Read + 'static) -> Result<Lines, LogError> {
        let read = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let counted = Counted {
            inner: src,
            bytes: read.clone(),
        };
        let mut raw = std::io::BufReader::with_capacity(1 << 16, counted);
        let io = |e: std::io::Error| LogError::Io {
            log: log.to_string(),
            why: e.to_string(),
        };
        let head = raw.fill_buf().map_err(io)?;
        let reader: Box<dyn BufRead> = match Compression::of_head(head) {
            Compression::Plain => Box::new(raw),
            Compression::Gzip => Box::new(std::io::BufReader::with_capacity(
                1 << 16,
                flate2::bufread::MultiGzDecoder::new(raw),
            )),
            Compression::Zstd => Box::new(std::io::BufReader::with_capacity(
                1 << 16,
                ZstdFrames::new(raw).map_err(io)?,
            )),
        };
        Ok(Lines {
            log: log.to_string(),
            reader,
            line: 0,
            buf: Vec::with_capacity(1024),
            read,
        })
    }

    /// The name the log is called by in messages.
    pub fn name(&self) -> &str {
        &self.log
    }

    /// The number of the line last returned (from 1).
    pub fn line(&self) -> u64 {
        self.line
    }

    /// The next line that is not blank, without its line end; `None` at the end.
    pub fn next_line(&mut self) -> Result<Option<&str>, LogError> {
        loop {
            self.buf.clear();
            self.line += 1;
            let n = read_line_bounded(&mut *self.reader, &mut self.buf, MAX_LINE_BYTES).map_err(
                |e| match e {
                    Bounded::Io(e) => LogError::Io {
                        log: self.log.clone(),
                        why: e.to_string(),
                    },
                    Bounded::Long => LogError::LongLine {
                        log: self.log.clone(),
                        line: self.line,
                        max: MAX_LINE_BYTES,
                    },
                },
            )?;
            if n == 0 {
                return Ok(None);
            }
            while matches!(self.buf.last(), Some(b'\n' | b'\r')) {
                self.buf.pop();
            }
            if self.line == 1 && self.buf.starts_with("\u{feff}".as_bytes()) {
                self.buf.drain(..3);
            }
            if self.buf.iter().all(|b| b.is_ascii_whitespace()) {
                continue;
            }
            return match std::str::from_utf8(&self.buf) {
                Ok(s) => Ok(Some(s)),
                Err(_) => Err(LogError::NotText {
                    log: self.log.clone(),
                    line: self.line,
                }),
            };
        }
    }

    /// An error of the line last returned, in `field` (empty: the line as a whole).
    pub fn error(&self, field: &str, why: impl Into<String>) -> LogError {
        LogError::Record {
            log: self.log.clone(),
            line: self.line,
            field: if field.is_empty() {
                String::new()
            } else {
                format!(", field {field}")
            },
            why: why.into(),
        }
    }
}

enum Bounded {
    Io(std::io::Error),
    Long,
}

/// Read up to and including the next `\n` into `buf`, refusing a line longer than `max`.
fn read_line_bounded(r: &mut dyn BufRead, buf: &mut Vec<u8>, max: usize) -> Result<usize, Bounded> {
    let mut total = 0;
    loop {
        let avail = match r.fill_buf() {
            Ok(a) => a,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Bounded::Io(e)),
        };
        if avail.is_empty() {
            return Ok(total);
        }
        let (take, done) = match avail.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (avail.len(), false),
        };
        if buf.len() + take > max + 2 {
            return Err(Bounded::Long);
        }
        buf.extend_from_slice(&avail[..take]);
        r.consume(take);
        total += take;
        if done {
            return Ok(total);
        }
    }
}

/// The value of `"type"` in a record line (the kind of record), or why there is none.
pub fn record_type(lines: &Lines, line: &str) -> Result<String, LogError> {
    #[derive(serde::Deserialize)]
    struct Tag {
        #[serde(rename = "type")]
        kind: Option<String>,
    }
    match serde_json::from_str::<Tag>(line) {
        Ok(Tag { kind: Some(k) }) => Ok(k),
        Ok(Tag { kind: None }) => Err(lines.error("type", "missing: every record says its type")),
        Err(e) => Err(lines.error("", format!("not a JSON object ({e})"))),
    }
}

/// Parse the line last read as a `T`, an error naming the field that is wrong.
pub fn parse<T: DeserializeOwned>(lines: &Lines, line: &str) -> Result<T, LogError> {
    let mut de = serde_json::Deserializer::from_str(line);
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." { String::new() } else { path };
        let inner = e.into_inner().to_string();
        // serde_json's own position ("at line 1 column 40") says nothing more here.
        let why = match inner.find(" at line ") {
            Some(i) => inner[..i].to_string(),
            None => inner,
        };
        lines.error(&field, why)
    })
}

/// Write `rec` as one line of a log: serialized into a buffer of its own, then written whole
/// (a serializer's many small writes through a compressor cost a fifth of a writer's time).
pub fn write_record<T: serde::Serialize>(out: &mut dyn Write, rec: &T) -> std::io::Result<()> {
    thread_local! {
        static BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BUF.with_borrow_mut(|buf| {
        buf.clear();
        serde_json::to_writer(&mut *buf, rec).map_err(std::io::Error::other)?;
        buf.push(b'\n');
        out.write_all(buf)
    })
}

/// How a payment that is not a whole number of the log's money units is paid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Rounding {
    /// Down to the unit (the house keeps the fraction).
    #[default]
    Down,
    /// To the nearest unit, halves up.
    Nearest,
}

/// Rules as a log header states them: every field of `rules`.
pub fn rules_map<R: serde::Serialize>(rules: &R) -> serde_json::Map<String, serde_json::Value> {
    match serde_json::to_value(rules) {
        Ok(serde_json::Value::Object(m)) => m,
        _ => unreachable!("rules serialize to an object"),
    }
}

/// The rules a header states: `base` with the fields `given` gives (`optional`: the fields
/// `base` leaves out when they hold their default). An error names the field (`rules.NAME`,
/// or `rules`) and says why.
pub fn rules_over<R: serde::Serialize + DeserializeOwned>(
    base: &R,
    optional: &[&str],
    given: &serde_json::Map<String, serde_json::Value>,
) -> Result<R, (String, String)> {
    let mut v = rules_map(base);
    for (k, x) in given {
        if !v.contains_key(k) && !optional.contains(&k.as_str()) {
            let mut known: Vec<&str> = v.keys().map(String::as_str).collect();
            known.extend(optional);
            known.sort_unstable();
            return Err((
                format!("rules.{k}"),
                format!("not a rule; the rules are {}", known.join(", ")),
            ));
        }
        v.insert(k.clone(), x.clone());
    }
    serde_json::from_value(serde_json::Value::Object(v))
        .map_err(|e| ("rules".to_string(), e.to_string()))
}

/// A card with its suit: rank (as [`Rank`]) × 4 + suit (0 clubs, 1 diamonds, 2 hearts,
/// 3 spades).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Card(pub u8);

const RANKS: &[u8; 13] = b"A23456789TJQK";
const SUITS: &[u8; 4] = b"cdhs";

impl Card {
    pub fn new(rank: Rank, suit: u8) -> Card {
        Card(rank * 4 + suit)
    }
    pub fn rank(self) -> Rank {
        self.0 / 4
    }
    pub fn suit(self) -> u8 {
        self.0 % 4
    }
}

impl std::fmt::Display for Card {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = RANKS[self.rank() as usize] as char;
        let s = SUITS[self.suit() as usize] as char;
        write!(f, "{r}{s}")
    }
}

impl std::str::FromStr for Card {
    type Err = String;
    fn from_str(s: &str) -> Result<Card, String> {
        let bad = || {
            format!("'{s}' is not a card: write the rank (A 2-9 T J Q K) then the suit (c d h s), e.g. Ah or Td")
        };
        let b = s.as_bytes();
        let (rank, suit) = match b {
            [r, s] => (*r, *s),
            [b'1', b'0', s] => (b'T', *s),
            _ => return Err(bad()),
        };
        let rank = RANKS
            .iter()
            .position(|&c| c == rank.to_ascii_uppercase())
            .ok_or_else(bad)?;
        let suit = SUITS
            .iter()
            .position(|&c| c == suit.to_ascii_lowercase())
            .ok_or_else(bad)?;
        Ok(Card::new(rank as u8, suit as u8))
    }
}

impl serde::Serialize for Card {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Card {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        s.parse().map_err(serde::de::Error::custom)
    }
}

/// Suits for a shoe dealt as ranks only: each card dealt gets a suit at random among the
/// copies of its rank still in the shoe, from a stream of its own. Cards dealt uniformly
/// at random by rank and suited so are a uniformly random suited shoe.
pub struct Suits {
    left: [[u16; 4]; 13],
    full: u16,
    rng: crate::rng::Rng,
}

impl Suits {
    pub fn new(decks: u32, rng: crate::rng::Rng) -> Suits {
        let full = decks as u16;
        Suits {
            left: [[full; 4]; 13],
            full,
            rng,
        }
    }

    /// A new shoe: every card back.
    pub fn reshuffle(&mut self) {
        self.left = [[self.full; 4]; 13];
    }

    /// The suit of the next card of `rank` dealt.
    pub fn deal(&mut self, rank: Rank) -> Card {
        let left = &mut self.left[rank as usize];
        let total: u32 = left.iter().map(|&n| n as u32).sum();
        if total == 0 {
            // More cards of this rank than the shoe holds (cannot happen from a shoe): a
            // suit anyway, so the writer goes on and a reader sees the excess.
            return Card::new(rank, 0);
        }
        let mut pick = crate::rng::below(&mut self.rng, total);
        for (s, n) in left.iter_mut().enumerate() {
            if pick < *n as u32 {
                *n -= 1;
                return Card::new(rank, s as u8);
            }
            pick -= *n as u32;
        }
        unreachable!("the pick is below the total")
    }

    /// Put `card` back among those left (a card on the table kept out of a mid-round
    /// reshuffle is taken again by [`Suits::take`]).
    pub fn take(&mut self, card: Card) {
        let n = &mut self.left[card.rank() as usize][card.suit() as usize];
        *n = n.saturating_sub(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roundtrip(c: Compression) {
        let mut out = Vec::new();
        // More than one Zstandard frame's worth.
        let text: String = (0..500_000)
            .map(|i| format!("{{\"n\":{i},\"pad\":\"abcdefghijklmnop\"}}\n"))
            .collect();
        assert!(text.len() > 2 * ZSTD_FRAME);
        {
            let mut e = Encoder::new(c, &mut out);
            // Written in pieces, as a log is.
            for piece in text.as_bytes().chunks(1000) {
                e.write_all(piece).unwrap();
            }
            e.finish().unwrap();
        }
        assert_eq!(Compression::of_head(&out), c);
        if c != Compression::Plain {
            assert!(out.len() < text.len() / 3, "{c:?}: {} bytes", out.len());
        }
        let mut lines = Lines::new("log", std::io::Cursor::new(out)).unwrap();
        let mut n = 0;
        while let Some(l) = lines.next_line().unwrap() {
            assert_eq!(l, format!("{{\"n\":{n},\"pad\":\"abcdefghijklmnop\"}}"));
            n += 1;
        }
        assert_eq!(n, 500_000);
    }

    #[test]
    fn logs_are_read_back_plain_gzip_and_zstd_of_several_frames() {
        roundtrip(Compression::Plain);
        roundtrip(Compression::Gzip);
        roundtrip(Compression::Zstd);
        assert_eq!(
            Compression::of_name(std::ffi::OsStr::new("a.jsonl.zst")),
            Compression::Zstd
        );
        assert_eq!(
            Compression::of_name(std::ffi::OsStr::new("a.gz")),
            Compression::Gzip
        );
        assert_eq!(
            Compression::of_name(std::ffi::OsStr::new("a.jsonl")),
            Compression::Plain
        );
    }

    #[test]
    fn a_long_line_and_bad_text_are_refused_with_their_line() {
        let mut text = b"{}\n\n".to_vec();
        text.extend(vec![b'x'; MAX_LINE_BYTES + 10]);
        let mut lines = Lines::new("L", std::io::Cursor::new(text)).unwrap();
        assert_eq!(lines.next_line().unwrap(), Some("{}"));
        assert_eq!(
            lines.next_line().unwrap_err().to_string(),
            format!(
                "L line 3: longer than {MAX_LINE_BYTES} bytes; a round log has one record a line"
            )
        );
        let mut lines = Lines::new("L", std::io::Cursor::new(b"\xff\xfe\n".to_vec())).unwrap();
        assert!(matches!(
            lines.next_line(),
            Err(LogError::NotText { line: 1, .. })
        ));
    }

    #[test]
    fn a_bad_field_is_named() {
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        struct R {
            #[allow(dead_code)]
            seats: Vec<S>,
        }
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        struct S {
            #[allow(dead_code)]
            stake: u64,
        }
        let text = "{\"seats\":[{\"stake\":1},{\"stake\":-5}]}\n";
        let mut lines = Lines::new("L", std::io::Cursor::new(text.as_bytes().to_vec())).unwrap();
        let l = lines.next_line().unwrap().unwrap().to_string();
        let e = parse::<R>(&lines, &l).unwrap_err().to_string();
        assert_eq!(
            e,
            "L line 1, field seats[1].stake: invalid value: integer `-5`, expected u64"
        );
    }

    #[test]
    fn cards_are_written_and_read_with_their_suit() {
        for id in 0..52u8 {
            let c = Card(id);
            assert_eq!(c.to_string().parse::<Card>().unwrap(), c);
        }
        assert_eq!("10d".parse::<Card>().unwrap(), "Td".parse().unwrap());
        assert_eq!(Card::new(0, 2).to_string(), "Ah");
        assert!("1x".parse::<Card>().is_err());
        // Suits dealt for a shoe: every suit of a rank as often as the shoe holds it.
        let mut s = Suits::new(2, crate::rng::chunk_rng(1, 0));
        let mut seen = [0u32; 4];
        for _ in 0..8 {
            seen[s.deal(5).suit() as usize] += 1;
        }
        assert_eq!(seen, [2; 4]);
    }
}
