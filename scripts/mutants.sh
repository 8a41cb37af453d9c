#!/usr/bin/env bash
# Mutation testing with cargo-mutants: for maintainers, not CI (a file takes minutes to hours).
#
#   scripts/mutants.sh                      # the core: stats, shard, check, engine, report
#   scripts/mutants.sh src/stats.rs         # one file (or several, or a folder like src/report)
#   scripts/mutants.sh src/stats.rs -- --iterate   # extra cargo-mutants options after --
#   scripts/mutants.sh --record src/stats.rs       # keep a stopped run's outcomes (below)
#
# Outcomes are kept in reports/mutants/<file>/ (caught, missed, unviable, timeout: one mutant a
# line, as cargo-mutants names them, with line:column), written when a file's run ends, or by
# --record for a run that was stopped. With `-- --iterate` a run skips the mutants those lists
# say were caught, unviable or timed out, so a file of hundreds of mutants can be tested over
# several sittings, on different machines. A record is carried over to moved lines (rebase
# below); a mutant whose line changed is tested again. `-- -F REGEX` tests only the mutants
# whose names match. MUTANTS_TIMEOUT sets the timeout (300 s).
#
# Needs `cargo install cargo-mutants --locked`. Results: mutants.out/ (caught.txt, missed.txt,
# unviable.txt, timeout.txt, outcomes.json). Exclusions, each with its reason, are in
# .cargo/mutants.toml (equivalent mutants only).
#
# Speed: one build per mutant, so the build must be quick and the code fast. The release profile
# with LTO off, 16 codegen units and incremental compilation (the statistical tests are slow
# unoptimised; fat LTO with one codegen unit takes minutes per link), in its own target folder
# (target/mutants) so the normal release build is left alone. target/mutants belongs to this
# script: the copies' last builds (mutated) land there, so a `cargo test` by hand with that
# folder may find them fresh and run a mutant. cargo-mutants passes the same
# profile to its build (`cargo test --no-run`) and its test run, so nothing is built twice;
# the test targets chosen for a file go to both (`--cargo-arg`), so only those are built.
# Mutants are tested in a copy of the tree (a killed run never leaves a mutated source file);
# the copy shares target/mutants, so dependencies are built once. Each file runs only the test
# targets that exercise it (see `tests_for`): a restriction can only turn "caught" into
# "missed", never the other way, so a score measured this way is a lower bound.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! cargo mutants --version >/dev/null 2>&1; then
    echo "cargo-mutants is not installed: cargo install cargo-mutants --locked" >&2
    exit 2
fi

export CARGO_PROFILE_RELEASE_LTO=off
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
export CARGO_PROFILE_RELEASE_INCREMENTAL=true
export CARGO_PROFILE_RELEASE_DEBUG=false
# Integer overflow panics as in the test profile: a mutant that underflows a counter is caught
# as it would be by `cargo test`, not wrapped silently.
export CARGO_PROFILE_RELEASE_OVERFLOW_CHECKS=true
# mold, where installed (apt-get install mold), links a test binary in a fraction of ld's time.
if command -v mold >/dev/null 2>&1; then
    export RUSTFLAGS="${RUSTFLAGS:+$RUSTFLAGS }-C link-arg=-fuse-ld=mold"
fi
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target/mutants}"
TIMEOUT="${MUTANTS_TIMEOUT:-300}"
# cargo-nextest, where installed, stops a mutant's tests at the first failing test (cargo test
# runs every test of a binary to its end: a minute for the Doom solver's slowest), and runs
# each test in its own process.
tool=()
if cargo nextest --version >/dev/null 2>&1; then
    tool=(--test-tool=nextest)
fi

files=()
extra=()
record_only=false
while [ $# -gt 0 ]; do
    if [ "$1" = "--record" ]; then
        record_only=true
        shift
        continue
    fi
    if [ "$1" = "--" ]; then
        shift
        extra=("$@")
        break
    fi
    files+=("$1")
    shift
done
[ ${#files[@]} -gt 0 ] || files=(src/stats.rs src/shard.rs src/check.rs src/engine.rs src/report)

# The test targets that exercise a file (cargo test options); empty = every test.
tests_for() {
    case "$1" in
    src/stats.rs) echo "--lib" ;;
    src/shard.rs) echo "--lib" ;;
    src/check.rs) echo "--lib --test check --test check_bless" ;;
    src/engine.rs) echo "--lib --test shards --test shards_dice --test cli --test progress --test checkpoint" ;;
    src/report/svg.rs) echo "--lib --test plots" ;;
    # write_output's closed-stdout guard shows only on the real binary (tests/cli.rs).
    src/report/mod.rs) echo "--lib --test cli" ;;
    src/report | src/report/*) echo "--lib" ;;
    src/games/blackjack/shoe.rs) echo "--lib" ;;
    src/audit.rs) echo "--lib" ;;
    src/games/blackjack/distribution.rs) echo "--lib" ;;
    src/games/blackjack/audit.rs) echo "--lib --test audit" ;;
    src/games/doom/audit.rs) echo "--lib --test audit" ;;
    src/games/doom/exact.rs) echo "--lib" ;;
    src/compare.rs) echo "--lib --test compare --test interrupted" ;;
    src/game.rs) echo "--lib --test shards --test check --test check_bless" ;;
    src/games/blackjack/indices.rs) echo "--lib --test counting" ;;
    src/games/blackjack/count.rs) echo "--lib --test counting" ;;
    src/games/blackjack/derive.rs) echo "--lib --test indices --test exact" ;;
    src/games/blackjack/round.rs) echo "--lib --test exact --test blackjack_stats" ;;
    src/games/twentyone/*) echo "--lib --test twentyone" ;;
    src/games/doom/score.rs) echo "--lib" ;;
    src/games/doom/*) echo "--lib --test doom" ;;
    *) echo "" ;;
    esac
}

# A test-name filter for the test binaries (after `--`); empty = every test in them.
filter_for() {
    case "$1" in
    src/stats.rs) echo "stats::" ;;
    src/shard.rs) echo "shard::" ;;
    src/report/svg.rs | src/report/mod.rs) echo "-- --skip games::" ;;
    src/report | src/report/*) echo "report::" ;;
    src/audit.rs) echo "audit::" ;;
    src/games/blackjack/shoe.rs) echo "games::blackjack::shoe" ;;
    src/games/doom/exact.rs) echo "games::doom" ;;
    # The exact distribution's own tests (the audit's CLI tests exercise it too, at 30 s a run).
    src/games/blackjack/distribution.rs) echo "games::blackjack::distribution" ;;
    src/games/doom/score.rs) echo "games::doom" ;;
    # Skips (passed to the test binaries, after a second --): the slow tests of other games and of the exact distribution,
    # which never run the mutated file.
    src/games/blackjack/round.rs) echo "-- --skip distribution:: --skip doom:: --skip twentyone::" ;;
    src/games/twentyone/*) echo "-- --skip blackjack:: --skip doom:: --skip baccarat::" ;;
    src/games/doom/sim.rs) echo "-- --skip blackjack:: --skip twentyone:: --skip baccarat:: --skip doom::win::" ;;
    src/games/doom/win.rs) echo "-- --skip blackjack:: --skip twentyone:: --skip baccarat::" ;;
    *) echo "" ;;
    esac
}

# Merge a run's outcome lists into the kept record, the latest outcome of each mutant winning:
# a mutant this run tested takes this run's outcome (caught, missed, timeout, unviable), the
# others keep theirs. With --iterate cargo-mutants lists the mutants it skipped in
# previously_caught.txt; the kept record already holds them, since the record is brought up
# to date before every run. Both sides must name the same source: the run's is the blob in its
# marker (kept beside mutants.out/, which cargo-mutants moves aside when it starts), and the
# record is carried over to it first. A run without a marker (made by an older script) is not
# merged. Once merged, the run's outcomes.json is renamed, so a run that never started (a bad
# option, `--list`) cannot bring the same old lists in again under a newer marker.
record() {
    local out="$1" keep="$2" f="$3"
    [ -f "$out/outcomes.json" ] || return 0
    local src="${out%/*}/source"
    if [ -f "$f" ]; then
        if [ ! -f "$src" ]; then
            echo "$out: no record of the source it tested; its outcomes are not kept" >&2
            return 0
        fi
        mkdir -p "$keep"
        rebase "$keep" "$f" "$(cat "$src")"
    fi
    mkdir -p "$keep"
    local tmp k
    tmp=$(mktemp -d)
    lines() { { cat "$@" 2>/dev/null || true; } | grep . | sort -u || true; }
    lines "$out/caught.txt" "$out/missed.txt" "$out/timeout.txt" "$out/unviable.txt" >"$tmp/tested"
    for k in caught missed timeout unviable; do
        { lines "$keep/$k.txt" | comm -23 - "$tmp/tested"; lines "$out/$k.txt"; } | sort -u >"$tmp/$k"
    done
    for k in caught missed timeout unviable; do
        mv "$tmp/$k" "$keep/$k.txt"
    done
    rm -r "$tmp"
    [ ! -f "$src" ] || cp "$src" "$keep/source"
    # A stopped run's --record leaves it in place: cargo-mutants, if still running, writes it
    # again after its next mutant.
    $record_only || mv "$out/outcomes.json" "$out/outcomes.recorded.json"
}

# Names carry line:column, so a record made before lines moved names other lines now. Each
# record keeps the git blob of the source its names refer to (`source`); rebase carries the
# entries on unchanged lines to where those lines are in another version of the file (written
# to git's object store with hash-object -w, so the blob can be read back; a record of an
# uncommitted version can be carried over only on the machine that made it) and drops the
# rest, which are then tested again. With a list of the file's mutants as they are now
# (`cargo mutants --list`), entries it does not name (a renamed function, a mutant now
# excluded) are dropped too. A record whose source cannot be read is set aside in
# unplaced/ and the file starts afresh. Single files only: a folder's record is not carried.
rebase() {
    [ -f "$2" ] || return 0
    local rc=0
    python3 scripts/mutants-rebase.py "$@" || rc=$?
    if [ "$rc" = 3 ]; then
        mkdir -p "$1/unplaced"
        for k in caught missed timeout unviable; do
            [ ! -f "$1/$k.txt" ] || mv "$1/$k.txt" "$1/unplaced/$k.txt"
        done
        echo "$1: set aside in $1/unplaced/ (its source is unknown); the file starts afresh" >&2
    elif [ "$rc" != 0 ]; then
        exit "$rc"
    fi
}

for f in "${files[@]}"; do
    name=$(echo "$f" | tr '/.' '__')
    out="target/mutants.out/$name/mutants.out"
    keep="reports/mutants/$name"
    # Bring the record up to date with this machine's last run (stopped or not) first.
    record "$out" "$keep" "$f"
    if $record_only; then
        if [ -d "$keep" ]; then
            echo "$f: $(grep -c . "$keep/caught.txt" || true) caught, $(grep -c . "$keep/missed.txt" || true) missed kept in $keep"
        else
            echo "$f: nothing to record (no run in target/mutants.out/$name)"
        fi
        continue
    fi
    # This run's names are those of the file as it is now: carry the record over to it.
    rm -f "${out%/*}/source"
    if [ -f "$f" ]; then
        git diff --quiet HEAD -- "$f" ||
            echo "warning: $f has uncommitted changes: its record will name a version other machines cannot read" >&2
        blob=$(git hash-object -w "$f")
        names=$(mktemp)
        CARGO_TARGET_DIR="$CARGO_TARGET_DIR" cargo mutants --list --file "$f" >"$names"
        rebase "$keep" "$f" "$blob" "$names"
        rm -f "$names"
    fi
    # Resuming: cargo-mutants skips what its lists name; give it the kept record's.
    if [[ " ${extra[*]-} " == *" --iterate "* ]] && [ -d "$keep" ]; then
        mkdir -p "$out"
        # Timeouts are skipped too: a timeout is a mutant whose tests ran past the timeout
        # (almost always a loop that no longer ends), counted as detected. With
        # MUTANTS_RETEST_TIMEOUTS=1 they are tested again: after a sitting on a loaded or paused
        # machine, where a slow survivor could have timed out.
        skip=("$keep/caught.txt" "$keep/unviable.txt")
        [ "${MUTANTS_RETEST_TIMEOUTS:-0}" = 1 ] || [ ! -f "$keep/timeout.txt" ] || skip+=("$keep/timeout.txt")
        cat "${skip[@]}" >"$out/previously_caught.txt"
        cp "$keep/unviable.txt" "$out/unviable.txt"
        : >"$out/caught.txt"
    fi
    glob="$f"
    [ -d "$f" ] && glob="$f/**"
    args=()
    for a in $(tests_for "$f"); do args+=("--cargo-arg=$a"); done
    filter=$(filter_for "$f")
    after=()
    # shellcheck disable=SC2206 # a filter may be several words (skips)
    [ -z "$filter" ] || after=(-- $filter)
    mkdir -p "$out"
    [ ! -f "$f" ] || echo "$blob" >"${out%/*}/source"
    echo "== $f (tests: $(tests_for "$f" | sed 's/^$/all/') $filter)"
    nice -n 10 cargo mutants --profile release --file "$glob" --timeout "$TIMEOUT" \
        --build-timeout 1800 --jobs 1 --output "target/mutants.out/$name" ${tool[@]+"${tool[@]}"} \
        ${args[@]+"${args[@]}"} ${extra[@]+"${extra[@]}"} ${after[@]+"${after[@]}"} || true
    record "$out" "$keep" "$f"
    for k in caught missed unviable timeout; do
        printf '%s %s  ' "$k" "$(cat "$out/$k.txt" 2>/dev/null | grep -c . || true)"
    done
    echo
done
