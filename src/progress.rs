//! Progress on standard error for long work: a bar with an ETA, drawn only on a terminal,
//! only when the command was not asked to be quiet, and only once the work has lasted
//! [`SHOW_AFTER`] (work that ends sooner leaves the terminal untouched).
//!
//! One type for every long job (simulations by chunks, the Dice of Doom solve by levels, the
//! blackjack exact analyses by stage), so every bar looks and behaves alike. It may be shared
//! by threads: `advance` is cheap and thread-safe.
//!
//! The ETA is the work left at the average pace of the work done by this process: work
//! restored from a saved run (`resume`) counts as neither done nor timed.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use indicatif::{HumanDuration, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// How long work runs before its bar appears.
pub const SHOW_AFTER: Duration = Duration::from_millis(1500);

/// The least time spent on a stage's steps for their pace to give an ETA.
const MIN_PACE: Duration = Duration::from_secs(1);

/// A piece of work's progress: `len` steps of a unit (e.g. "chunks", "rule changes").
pub struct Progress {
    bar: ProgressBar,
    /// Set once the bar is on the terminal.
    shown: Arc<AtomicBool>,
    /// Where this process's work starts: the steps restored (`resume`) and the bar's elapsed
    /// time then (nanoseconds); the ETA reads the pace from there.
    from: Arc<[AtomicU64; 2]>,
}

/// The time `len − pos` more steps take at the pace of the steps from `base` to `pos` in
/// `spent` (None: no step done yet to time, or too little time spent to tell a pace: steps
/// that came at once, read from a cache, say nothing of those left).
pub fn eta(len: u64, pos: u64, base: u64, spent: Duration) -> Option<Duration> {
    if spent < MIN_PACE && pos < len {
        return None;
    }
    let done = pos.checked_sub(base).filter(|&d| d > 0)?;
    let left = len.saturating_sub(pos);
    Some(spent.mul_f64(left as f64 / done as f64))
}

impl Progress {
    /// Progress of `len` steps, labelled `label` ("solving", "audit: exact tiers"), counted in
    /// `unit`. Drawn when `show` and standard error is a terminal, after [`SHOW_AFTER`].
    pub fn new(show: bool, len: u64, label: &str, unit: &str) -> Progress {
        let p = Self::styled(
            Self::wanted(show),
            len,
            label,
            "{human_pos}/{human_len} {msg}",
        );
        p.bar.set_message(unit.to_string());
        p
    }

    /// Progress of work counted in fine steps no reader counts (`len` in the millions), shown
    /// as a percentage `of` what ("of the turn levels").
    pub fn percent(show: bool, len: u64, label: &str, of: &str) -> Progress {
        Self::styled(
            Self::wanted(show),
            len,
            label,
            &format!("{{percent}}% {of}"),
        )
    }

    /// Progress that is never drawn.
    pub fn hidden() -> Progress {
        Progress::new(false, 0, "", "")
    }

    fn wanted(show: bool) -> bool {
        show && std::io::stderr().is_terminal()
    }

    /// The bar, hidden; when `wanted`, a watcher puts it on standard error after
    /// [`SHOW_AFTER`] unless the work has finished, and keeps its clock ticking.
    fn styled(wanted: bool, len: u64, label: &str, count: &str) -> Progress {
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
        let from: Arc<[AtomicU64; 2]> = Arc::new([AtomicU64::new(0), AtomicU64::new(0)]);
        let pace = from.clone();
        let eta_key = move |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            let base = pace[0].load(Ordering::SeqCst);
            let since = Duration::from_nanos(pace[1].load(Ordering::SeqCst));
            let spent = s.elapsed().saturating_sub(since);
            let _ = match eta(s.len().unwrap_or(0), s.pos(), base, spent) {
                Some(d) => write!(w, "{:#}", HumanDuration(d)),
                None => write!(w, "?"),
            };
        };
        if let Ok(style) = ProgressStyle::with_template(&format!(
            "{{prefix}} [{{elapsed_precise}}] {{wide_bar}} {count}, eta {{eta}}"
        )) {
            bar.set_style(style.with_key("eta", eta_key));
        }
        bar.set_prefix(label.to_string());
        let shown = Arc::new(AtomicBool::new(false));
        if wanted {
            let (bar, shown) = (bar.clone(), shown.clone());
            std::thread::spawn(move || {
                std::thread::sleep(SHOW_AFTER);
                if !bar.is_finished() {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                    bar.enable_steady_tick(Duration::from_millis(500));
                    shown.store(true, Ordering::SeqCst);
                }
            });
        }
        WATCH.with(|w| {
            if let Some(w) = w.borrow().as_ref() {
                if let Ok(mut b) = w.0.lock() {
                    *b = Some(bar.clone());
                }
            }
        });
        Progress { bar, shown, from }
    }

    /// `n` more steps done.
    pub fn advance(&self, n: u64) {
        self.bar.inc(n);
    }

    /// Start from `pos` steps done before this process (a saved run resumed): shown as done,
    /// and not timed, so that the ETA is the pace of this process's own work.
    pub fn resume(&self, pos: u64) {
        self.from[0].store(pos, Ordering::SeqCst);
        self.from[1].store(self.bar.elapsed().as_nanos() as u64, Ordering::SeqCst);
        self.bar.set_position(pos);
    }

    /// A new stage of the same work: its label, length and unit, the count from zero.
    pub fn stage(&self, label: &str, len: u64, unit: &str) {
        self.bar.set_prefix(label.to_string());
        self.bar.set_message(unit.to_string());
        self.bar.set_length(len);
        self.bar.set_position(0);
        self.from[0].store(0, Ordering::SeqCst);
        self.from[1].store(self.bar.elapsed().as_nanos() as u64, Ordering::SeqCst);
    }

    /// Whether the bar has been put on the terminal.
    pub fn is_shown(&self) -> bool {
        self.shown.load(Ordering::SeqCst)
    }

    /// Remove the bar from the terminal (the work is done or stopped).
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

thread_local! {
    /// The watch of the work this thread runs ([`Watch::during`]).
    static WATCH: std::cell::RefCell<Option<Watch>> = const { std::cell::RefCell::new(None) };
}

/// Where work run elsewhere is watched from (`rtplab serve`'s runs): the latest progress made
/// by the work a thread runs under [`Watch::during`], read from any thread.
#[derive(Clone, Default)]
pub struct Watch(Arc<std::sync::Mutex<Option<ProgressBar>>>);

/// What a [`Watch`] sees: the stage's label, steps done of its steps, and their unit.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Seen {
    pub label: String,
    pub done: u64,
    pub of: u64,
    pub unit: String,
}

impl Watch {
    /// Run `work` on this thread with every progress it makes watched here.
    pub fn during<R>(&self, work: impl FnOnce() -> R) -> R {
        let before = WATCH.with(|w| w.borrow_mut().replace(self.clone()));
        let out = work();
        WATCH.with(|w| *w.borrow_mut() = before);
        out
    }

    /// The latest progress (None: no counted work has begun).
    pub fn seen(&self) -> Option<Seen> {
        let b = self.0.lock().ok()?.clone()?;
        Some(Seen {
            label: b.prefix(),
            done: b.position(),
            of: b.length().unwrap_or(0),
            unit: b.message(),
        })
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_not_wanted_is_never_shown_and_counts_anyway() {
        let p = Progress::new(false, 10, "work", "steps");
        std::thread::scope(|s| {
            for _ in 0..4 {
                s.spawn(|| p.advance(2));
            }
        });
        assert_eq!(p.bar.position(), 8);
        p.stage("next", 3, "things");
        assert_eq!((p.bar.position(), p.bar.length()), (0, Some(3)));
        p.resume(3);
        assert_eq!(p.bar.position(), 3);
        std::thread::sleep(SHOW_AFTER + Duration::from_millis(300));
        assert!(!p.is_shown());
        assert!(!Progress::hidden().is_shown());
    }

    /// The ETA is the pace of the work done by this process: steps restored from a saved run
    /// are neither work done nor time spent.
    #[test]
    fn the_eta_times_only_the_work_done_here() {
        let s = Duration::from_secs;
        // 100 of 1,000 steps in 10 s: 900 more take 90 s.
        assert_eq!(eta(1000, 100, 0, s(10)), Some(s(90)));
        // Resumed at 900, 10 more in 10 s: the 90 left take 90 s (not 1 s, as if the 900
        // restored had been done in those 10 s).
        assert_eq!(eta(1000, 910, 900, s(10)), Some(s(90)));
        // Nothing done yet: no pace to tell.
        assert_eq!(eta(1000, 900, 900, s(10)), None);
        // 2 of 15 steps at once (read from a cache): no pace to tell either.
        assert_eq!(eta(15, 2, 0, Duration::from_millis(200)), None);
        assert_eq!(eta(1000, 1000, 0, s(10)), Some(s(0)));
        let p = Progress::new(false, 1000, "work", "steps");
        p.resume(900);
        assert_eq!(p.bar.position(), 900);
        assert_eq!(p.from[0].load(Ordering::SeqCst), 900);
        p.stage("next", 10, "things");
        assert_eq!(p.from[0].load(Ordering::SeqCst), 0);
    }

    #[test]
    fn a_bar_appears_after_the_delay_unless_the_work_has_finished() {
        // Standard error is not a terminal under the test harness: the wish is forced.
        let long = Progress::styled(true, 10, "work", "{pos}");
        let short = Progress::styled(true, 10, "work", "{pos}");
        long.advance(1);
        short.finish();
        assert!(!long.is_shown(), "shown before {SHOW_AFTER:?}");
        std::thread::sleep(SHOW_AFTER + Duration::from_millis(500));
        assert!(long.is_shown());
        assert!(!short.is_shown());
        long.finish();
    }
}
