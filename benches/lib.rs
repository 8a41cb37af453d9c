//! Empty: the package `rtplab-benches` holds only the criterion benches (`[[bench]]` in its
//! Cargo.toml), kept apart so that testing rtplab never builds criterion.
