#!/usr/bin/env bash
# Mutation testing with cargo-mutants: for maintainers, not CI (a file takes minutes to hours).
#
#   scripts/mutants.sh                      # the core: stats, shard, check, engine, report
#   scripts/mutants.sh src/stats.rs         # one file (or several, or a folder like src/report)
#   scripts/mutants.sh src/stats.rs -- --iterate   # extra cargo-mutants options after --
#
# Needs `cargo install cargo-mutants --locked`. Each file's results go to
# target/mutants.out/<file>/mutants.out/ (caught.txt, missed.txt, unviable.txt, timeout.txt,
# outcomes.json). `-- --iterate` resumes from there, so a file of hundreds of mutants can be
# tested in several runs: cargo-mutants skips the mutants that directory lists as caught or
# unviable, or as skipped before (previously_caught.txt), and this script adds the last run's
# timeouts to those (a timeout is a mutant whose tests ran past the timeout, almost always a
# loop that no longer ends: detected; a run without --iterate tests it again). Those lists name
# mutants by line and column, so a mutant whose line moved is tested again. `-- -F REGEX`
# tests only the mutants whose names match; `-- --list` lists them without testing.
# MUTANTS_TIMEOUT sets the timeout (300 s). Exclusions, each with its reason, are in
# .cargo/mutants.toml (equivalent mutants only, keyed by file, function and mutation, never by
# line, so moving code leaves them valid).
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
while [ $# -gt 0 ]; do
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
    src/cards.rs) echo "--lib" ;;
    src/audit.rs) echo "--lib" ;;
    src/games/blackjack/distribution.rs) echo "--lib" ;;
    src/games/blackjack/audit.rs) echo "--lib --test audit" ;;
    src/games/doom/audit.rs) echo "--lib --test audit" ;;
    src/games/doom/exact.rs) echo "--lib" ;;
    src/compare.rs) echo "--lib --test compare --test interrupted" ;;
    src/game/*) echo "--lib --test it" ;;
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
    src/cards.rs) echo "cards::" ;;
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

for f in "${files[@]}"; do
    name=$(echo "$f" | tr '/.' '__')
    out="target/mutants.out/$name/mutants.out"
    # cargo-mutants creates its output folder but not the folders above it.
    mkdir -p "target/mutants.out/$name"
    if [[ " ${extra[*]-} " == *" --iterate "* ]] && [ -s "$out/timeout.txt" ]; then
        # cargo-mutants reads previously_caught.txt with caught.txt and unviable.txt, and
        # carries it into the new run's directory.
        touch "$out/previously_caught.txt"
        sort -u "$out/timeout.txt" "$out/previously_caught.txt" -o "$out/previously_caught.txt"
    fi
    glob="$f"
    [ -d "$f" ] && glob="$f/**"
    args=()
    for a in $(tests_for "$f"); do args+=("--cargo-arg=$a"); done
    filter=$(filter_for "$f")
    after=()
    # shellcheck disable=SC2206 # a filter may be several words (skips)
    [ -z "$filter" ] || after=(-- $filter)
    echo "== $f (tests: $(tests_for "$f" | sed 's/^$/all/') $filter)"
    nice -n 10 cargo mutants --profile release --file "$glob" --timeout "$TIMEOUT" \
        --build-timeout 1800 --jobs 1 --output "target/mutants.out/$name" ${tool[@]+"${tool[@]}"} \
        ${args[@]+"${args[@]}"} ${extra[@]+"${extra[@]}"} ${after[@]+"${after[@]}"} || true
done
