//! Strategy files of the dice games: the first non-comment line of a file is a strategy spec.

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
}
