#!/usr/bin/env python3
"""Carry a file's kept mutation outcomes over to the file as it is now (scripts/mutants.sh).

cargo-mutants names a mutant by path:line:column, so an outcome recorded before lines moved
would no longer name the same mutant and `--iterate` would test it again. The record keeps the
git blob of the source it was made on (`source`); this maps each recorded line to the same line
in the current file where that line is unchanged (difflib's matching blocks) and drops the
entries whose line changed or went (those mutants are tested again). An entry is only ever
carried to an identical line, so a carried "caught" still names a mutation of the same code.

    mutants-rebase.py KEEP_DIR PATH BLOB

PATH is the file as cargo-mutants names it, BLOB the git blob of the source to carry the record
to (scripts/mutants.sh writes it with `git hash-object -w`). The lists and KEEP_DIR/source are
rewritten, or left as they are when the record is already of that source, or when the record's
source is unknown or not in this repository (then cargo-mutants tests again whatever its names
no longer match: nothing is lost but machine time).
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


def line_map(old, new):
    """1-based old line -> 1-based new line, for the lines that did not change."""
    m = {}
    sm = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for a, b, n in sm.get_matching_blocks():
        for k in range(n):
            m[a + k + 1] = b + k + 1
    return m


def rebase(lines, mapping, path):
    """The entries of one list carried to their new lines; entries of other files kept."""
    out, dropped = [], 0
    for entry in lines:
        g = NAME.match(entry)
        if not g or g["path"] != path:
            out.append(entry)
            continue
        new = mapping.get(int(g["line"]))
        if new is None:
            dropped += 1
            continue
        out.append(f'{g["path"]}:{new}:{g["col"]}: {g["rest"]}')
    return out, dropped


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: mutants-rebase.py KEEP_DIR PATH BLOB")
    keep, src, now = sys.argv[1], sys.argv[2], sys.argv[3]
    marker = os.path.join(keep, "source")
    if not os.path.isdir(keep):
        return
    if not os.path.exists(marker):
        if any(os.path.exists(os.path.join(keep, f"{k}.txt")) for k in LISTS):
            print(f"{keep}: no record of the source it was made on; nothing carried over")
        return
    was = open(marker).read().strip()
    if was == now:
        return
    old = text_of_blob(was)
    if old is None:
        print(f"{keep}: its source {was} is not in git; entries on moved lines will be re-tested")
        return
    new = text_of_blob(now)
    if new is None:
        sys.exit(f"mutants-rebase.py: no git blob {now}")
    mapping = line_map(old.splitlines(), new.splitlines())
    total = 0
    for k in LISTS:
        p = os.path.join(keep, f"{k}.txt")
        if not os.path.exists(p):
            continue
        entries = [x for x in open(p).read().splitlines() if x.strip()]
        carried, dropped = rebase(entries, mapping, src)
        total += dropped
        with open(p + ".new", "w") as f:
            f.write("".join(x + "\n" for x in sorted(set(carried))))
        os.replace(p + ".new", p)
    with open(marker, "w") as f:
        f.write(now + "\n")
    print(f"{keep}: carried over to {src} at {now[:12]}; {total} entries on changed lines dropped")


if __name__ == "__main__":
    main()
