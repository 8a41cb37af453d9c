//! Progress on standard error for long work: a bar with an ETA, drawn only on a terminal,
//! only when the command was not asked to be quiet, and only once the work has lasted
//! [`SHOW_AFTER`] (work that ends sooner leaves the terminal untouched).
//!
//! One type for every long job (simulations by chunks, the Dice of Doom solve by levels, the
//! blackjack exact analyses by stage), so every bar looks and behaves alike. It may be shared
//! by threads: `advance` is cheap and thread-safe.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long work runs before its bar appears.
pub const SHOW_AFTER: Duration = Duration::from_millis(1500);

/// A piece of work's progress: `len` steps of a unit (e.g. "chunks", "rule changes").
pub struct Progress {
    bar: ProgressBar,
    /// Set once the bar is on the terminal.
    shown: Arc<AtomicBool>,
}

impl Progress {
    /// Progress of `len` steps, labelled `label` ("solving", "audit: exact tiers"), counted in
    /// `unit`. Drawn when `show` and standard error is a terminal, after [`SHOW_AFTER`].
    pub fn new(show: bool, len: u64, label: &str, unit: &str) -> Progress {
        let p = Self::styled(Self::wanted(show), len, label, "{pos}/{len} {msg}");
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
        if let Ok(style) = ProgressStyle::with_template(&format!(
            "{{prefix}} [{{elapsed_precise}}] {{wide_bar}} {count}, eta {{eta}}"
        )) {
            bar.set_style(style);
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
        Progress { bar, shown }
    }

    /// `n` more steps done.
    pub fn advance(&self, n: u64) {
        self.bar.inc(n);
    }

    /// Set the steps done to `pos`.
    pub fn set(&self, pos: u64) {
        self.bar.set_position(pos);
    }

    /// A new stage of the same work: its label, length and unit, the count from zero.
    pub fn stage(&self, label: &str, len: u64, unit: &str) {
        self.bar.set_prefix(label.to_string());
        self.bar.set_message(unit.to_string());
        self.bar.set_length(len);
        self.bar.set_position(0);
        self.bar.reset_eta();
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
        p.set(3);
        assert_eq!(p.bar.position(), 3);
        std::thread::sleep(SHOW_AFTER + Duration::from_millis(300));
        assert!(!p.is_shown());
        assert!(!Progress::hidden().is_shown());
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
