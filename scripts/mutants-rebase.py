#!/usr/bin/env python3
"""Carry a file's kept mutation outcomes over to another version of it (scripts/mutants.sh).

cargo-mutants names a mutant by path:line:column, so an outcome recorded before lines moved
would no longer name the same mutant and `--iterate` would test it again. The record keeps the
git blob of the source it was made on (`source`); this maps each recorded line to the same line
in the other version where that line is unchanged (difflib's matching blocks) and drops the
entries whose line changed or went (those mutants are tested again). An entry is only ever
carried to an identical line. With NAMES (the output of `cargo mutants --list` for the file as
it is now), entries it does not name are dropped as well: a function renamed with its lines
unchanged, a mutant since excluded as equivalent.

    mutants-rebase.py KEEP_DIR PATH BLOB [NAMES]

PATH is the file as cargo-mutants names it, BLOB the git blob of the source to carry the record
to (scripts/mutants.sh writes it with `git hash-object -w`). The lists and KEEP_DIR/source are
rewritten. Exit 0 when done (or when there is nothing to carry), 3 when the record's own source
is unknown or not in this repository: its names cannot be placed, and mutants.sh sets it aside.
"""
import difflib
import os
import re
import subprocess
import sys

LISTS = ("caught", "missed", "timeout", "unviable")
NAME = re.compile(r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<rest>.*)$")


def text_of_blob(blob):
    r = subprocess.run(["git", "cat-file", "-p", blob], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


def lines_of(text):
    # Only "\n" ends a line for the compiler's line numbers (str.splitlines also splits on
    # form feeds and Unicode separators).
    return text.split("\n")


def line_map(old, new):
    """1-based old line -> 1-based new line, for the lines that did not change."""
    m = {}
    sm = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for a, b, n in sm.get_matching_blocks():
        for k in range(n):
            m[a + k + 1] = b + k + 1
    return m


def rebase(entries, mapping, path):
    """The entries of one list carried to their new lines; entries of other files kept."""
    out, dropped = [], 0
    for entry in entries:
        g = NAME.match(entry)
        if not g or g["path"] != path:
            out.append(entry)
            continue
        new = mapping.get(int(g["line"])) if mapping is not None else int(g["line"])
        if new is None:
            dropped += 1
            continue
        out.append(f'{g["path"]}:{new}:{g["col"]}: {g["rest"]}')
    return out, dropped


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit("usage: mutants-rebase.py KEEP_DIR PATH BLOB [NAMES]")
    keep, src, now = sys.argv[1], sys.argv[2], sys.argv[3]
    names = None
    if len(sys.argv) == 5:
        names = {x.strip() for x in open(sys.argv[4]).read().split("\n") if x.strip()}
    marker = os.path.join(keep, "source")
    present = [k for k in LISTS if os.path.exists(os.path.join(keep, f"{k}.txt"))]
    if not present:
        return
    was = open(marker).read().strip() if os.path.exists(marker) else None
    if was is None:
        print(f"{keep}: no record of the source it was made on", file=sys.stderr)
        sys.exit(3)
    mapping = None
    if was != now:
        old = text_of_blob(was)
        if old is None:
            print(f"{keep}: its source {was} is not in this repository", file=sys.stderr)
            sys.exit(3)
        new = text_of_blob(now)
        if new is None:
            sys.exit(f"mutants-rebase.py: no git blob {now}")
        mapping = line_map(lines_of(old), lines_of(new))
    elif names is None:
        return
    moved = unlisted = 0
    for k in present:
        p = os.path.join(keep, f"{k}.txt")
        entries = [x for x in open(p).read().split("\n") if x.strip()]
        carried, dropped = rebase(entries, mapping, src)
        moved += dropped
        if names is not None:
            kept = [x for x in carried if not x.startswith(src + ":") or x in names]
            unlisted += len(carried) - len(kept)
            carried = kept
        with open(p + ".new", "w") as f:
            f.write("".join(x + "\n" for x in sorted(set(carried))))
        os.replace(p + ".new", p)
    with open(marker, "w") as f:
        f.write(now + "\n")
    if moved or unlisted or was != now:
        print(
            f"{keep}: carried over to {src} at {now[:12]}; dropped {moved} on changed lines, "
            f"{unlisted} no longer among its mutants"
        )


if __name__ == "__main__":
    main()
