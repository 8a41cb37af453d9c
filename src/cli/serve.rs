//! `rtplab serve` on the command line: where the page listens and which folders it shows.

use std::net::IpAddr;
use std::path::PathBuf;

use clap::Args;

use super::{heading, QuietArgs};

/// `rtplab serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The port to listen on; 0: one the system picks (the address is printed).
    #[arg(long, value_name = "N", default_value_t = 0, help_heading = heading::RUN)]
    pub port: u16,
    /// The address to listen on. The default answers this machine only; another (0.0.0.0,
    /// a LAN address) opens the page, and the commands it runs, to whoever reaches it.
    #[arg(long, value_name = "IP", default_value = "127.0.0.1", help_heading = heading::RUN)]
    pub bind: IpAddr,
    /// The reports folder the page shows read-only, and the only one (with the runs folder and
    /// strategies/) its commands read from (the counting calculator's reports).
    #[arg(long, value_name = "DIR", default_value = "reports", help_heading = heading::RUN)]
    pub reports: PathBuf,
    /// Where runs started from the page write their report folders (made when the first run
    /// starts; shown read-only beside the reports).
    #[arg(long, value_name = "FOLDER", default_value = "rtplab-runs", help_heading = heading::RUN)]
    pub runs: PathBuf,
    /// The longest a request answered at once may take, in seconds (longer work: a run).
    #[arg(long, value_name = "SECONDS", default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..=3600), help_heading = heading::RUN)]
    pub timeout: u64,
    /// Requests answered at the same time.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=64), help_heading = heading::RUN)]
    pub workers: u64,
    #[command(flatten)]
    pub quiet: QuietArgs,
}

impl From<&ServeArgs> for rtplab::web::Options {
    fn from(a: &ServeArgs) -> Self {
        rtplab::web::Options {
            bind: std::net::SocketAddr::new(a.bind, a.port),
            reports: a.reports.clone(),
            runs: a.runs.clone(),
            threads: a.workers as usize,
            timeout: std::time::Duration::from_secs(a.timeout),
        }
    }
}
