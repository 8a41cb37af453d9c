//! The cluster recipes in deploy/: the Kubernetes manifests parse and carry what a long run
//! needs (shard count in one place, threads from the CPU request, disruptions not counted,
//! checkpoints, RWX storage); the container commands and the Slurm script's command line run
//! the real binary shard by shard and their shards merge; the shell scripts parse.
//!
//! `--checkpoint` is used by every recipe. Until the binary has it, the runs here leave it out
//! (CHECKPOINT="", which the recipes support) and say so on standard error; the manifests are
//! still required to set it.

use crate::common::temp_dir;

use serde::Deserialize;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bin() -> PathBuf {
    PathBuf::from(crate::common::bin())
}

/// Every YAML document of a file, as JSON values.
fn docs(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap();
    serde_norway::Deserializer::from_str(&text)
        .map(|d| Value::deserialize(d).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
        .collect()
}

fn k8s(name: &str) -> Vec<Value> {
    docs(&repo().join("deploy/k8s").join(name))
}

fn kind<'a>(docs: &'a [Value], kind: &str) -> &'a Value {
    docs.iter()
        .find(|d| d["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind}"))
}

fn str_at<'a>(v: &'a Value, ptr: &str) -> &'a str {
    v.pointer(ptr)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{ptr} missing or not a string"))
}

fn int_at(v: &Value, ptr: &str) -> u64 {
    v.pointer(ptr)
        .and_then(Value::as_u64)
        .unwrap_or_else(|| panic!("{ptr} missing or not a number"))
}

/// Whether this build of rtplab has `--checkpoint` (see the module doc).
fn has_checkpoint() -> bool {
    let out = crate::common::process()
        .args(["sim", "blackjack", "--help"])
        .output()
        .unwrap();
    let yes = String::from_utf8_lossy(&out.stdout).contains("--checkpoint");
    if !yes {
        eprintln!("note: this rtplab has no --checkpoint yet; running the recipes without it");
    }
    yes
}

fn have(program: &str) -> bool {
    Command::new(program).arg("--version").output().is_ok()
}

/// A clean environment for a recipe's shell: no scheduler variables from the test's own.
fn shell(program: &str) -> Command {
    let mut c = Command::new(program);
    c.env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default());
    c
}

fn run_ok(c: &mut Command) -> std::process::Output {
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{c:?}: exit {:?}\n{}\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn merge_ok(files: &[PathBuf]) -> Value {
    let out = run_ok(
        crate::common::process()
            .arg("merge")
            .args(files)
            .args(["--format", "json"]),
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn shard_files(dir: &Path, n: u64) -> Vec<PathBuf> {
    (1..=n)
        .map(|k| dir.join(format!("shard-{k}.json")))
        .collect()
}

/// Small runs of each game for the recipes' command lines: (game, count, extra args).
const GAMES: [(&str, &str, &str); 4] = [
    ("blackjack", "30k", "--pairs 1"),
    ("doom", "3k", ""),
    ("twenty-one", "3k", ""),
    ("baccarat", "30k", "--pairs 1"),
];

#[test]
fn k8s_manifests_carry_what_a_long_run_needs() {
    let job_docs = k8s("indexed-job.yaml");
    let config = kind(&job_docs, "ConfigMap");
    let job = kind(&job_docs, "Job");
    let shards: u64 = str_at(config, "/data/SHARDS").parse().unwrap();

    // The shard count: completions equal the ConfigMap's SHARDS; parallelism no more.
    assert_eq!(str_at(job, "/spec/completionMode"), "Indexed");
    assert_eq!(
        int_at(job, "/spec/completions"),
        shards,
        "completions != SHARDS"
    );
    assert!(int_at(job, "/spec/parallelism") <= shards);

    // Failures: disruptions ignored, per-index retries, usage errors fail the index.
    assert!(int_at(job, "/spec/backoffLimitPerIndex") >= 1);
    assert_eq!(str_at(job, "/spec/podReplacementPolicy"), "Failed");
    let rules = job["spec"]["podFailurePolicy"]["rules"].as_array().unwrap();
    assert!(rules.iter().any(|r| r["action"] == "Ignore"
        && r["onPodConditions"]
            .as_array()
            .is_some_and(|c| c.iter().any(|c| c["type"] == "DisruptionTarget"))));
    let fail_index = rules.iter().find(|r| r["action"] == "FailIndex").unwrap();
    assert_eq!(fail_index["onExitCodes"]["values"], serde_json::json!([2]));

    // The pod: never restarted in place, time to checkpoint, threads from the CPU request,
    // the run's settings from the ConfigMap, rtplab exec'd (PID 1 gets SIGTERM).
    let pod = &job["spec"]["template"]["spec"];
    assert_eq!(pod["restartPolicy"], "Never");
    assert!(int_at(pod, "/terminationGracePeriodSeconds") >= 60);
    let c = &pod["containers"][0];
    assert_eq!(
        str_at(c, "/name"),
        str_at(fail_index, "/onExitCodes/containerName")
    );
    assert!(c.pointer("/resources/requests/cpu").is_some());
    let env = c["env"].as_array().unwrap();
    let cpus = env.iter().find(|e| e["name"] == "CPUS").unwrap();
    let field = &cpus["valueFrom"]["resourceFieldRef"];
    assert_eq!(field["resource"], "requests.cpu");
    assert_eq!(field["containerName"], c["name"]);
    assert_eq!(
        c["envFrom"][0]["configMapRef"]["name"],
        config["metadata"]["name"]
    );
    let script = str_at(c, "/args/0");
    for needle in [
        "exec rtplab sim",
        "--threads \"$CPUS\"",
        "--shard \"$K/$SHARDS\"",
        "--checkpoint",
        "--shard-out",
    ] {
        assert!(script.contains(needle), "container args lack {needle}");
    }
    assert!(!str_at(config, "/data/CHECKPOINT").is_empty());
    for key in ["GAME", "COUNT", "GAME_ARGS", "SEED"] {
        assert!(config["data"].get(key).is_some(), "ConfigMap lacks {key}");
    }

    // Storage: one ReadWriteMany claim, mounted by both jobs.
    let pvc = kind(&k8s("pvc.yaml"), "PersistentVolumeClaim").clone();
    assert!(pvc["spec"]["accessModes"]
        .as_array()
        .unwrap()
        .contains(&Value::from("ReadWriteMany")));
    let claim = str_at(&pvc, "/metadata/name");
    let merge = kind(&k8s("merge-job.yaml"), "Job").clone();
    for j in [job, &merge] {
        let vols = j["spec"]["template"]["spec"]["volumes"].as_array().unwrap();
        assert!(vols
            .iter()
            .any(|v| v["persistentVolumeClaim"]["claimName"] == claim));
    }
    let sc = kind(&k8s("storageclass-nfs.yaml"), "StorageClass").clone();
    assert_eq!(
        str_at(&sc, "/metadata/name"),
        str_at(&pvc, "/spec/storageClassName")
    );
}

/// The ConfigMap's data, the Job's and the merge job's shell scripts.
fn k8s_scripts() -> (serde_json::Map<String, Value>, String, String, String) {
    let job_docs = k8s("indexed-job.yaml");
    let data = kind(&job_docs, "ConfigMap")["data"]
        .as_object()
        .unwrap()
        .clone();
    let job = kind(&job_docs, "Job");
    let script = str_at(job, "/spec/template/spec/containers/0/args/0").to_string();
    let merge = kind(&k8s("merge-job.yaml"), "Job").clone();
    let mc = &merge["spec"]["template"]["spec"]["containers"][0];
    let claim = mc["env"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "CLAIM")
        .map(|e| str_at(e, "/value").to_string())
        .unwrap_or_default();
    (data, script, str_at(mc, "/args/0").to_string(), claim)
}

#[test]
fn k8s_container_commands_run_every_index_and_the_merge_job_merges() {
    if !Path::new("/bin/sh").exists() {
        eprintln!("no /bin/sh: skipped");
        return;
    }
    let checkpoint = has_checkpoint();
    let (data, script, merge_script, claim) = k8s_scripts();
    let path = format!(
        "{}:{}",
        bin().parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    // The manifest's own settings (only COUNT made small), then each game with 2 shards.
    let mut runs: Vec<(String, String, String, u64)> = vec![(
        data["GAME"].as_str().unwrap().into(),
        "30k".into(),
        data["GAME_ARGS"].as_str().unwrap().into(),
        data["SHARDS"].as_str().unwrap().parse().unwrap(),
    )];
    for (g, n, a) in GAMES {
        runs.push((g.into(), n.into(), a.into(), 2));
    }
    for (i, (game, count, args, shards)) in runs.iter().enumerate() {
        let d = temp_dir(&format!("deploy-k8s-{i}"));
        for index in 0..*shards {
            let mut c = shell("/bin/sh");
            for (k, v) in &data {
                c.env(k, v.as_str().unwrap());
            }
            c.env("PATH", &path)
                .env("GAME", game)
                .env("COUNT", count)
                .env("GAME_ARGS", args)
                .env("SHARDS", shards.to_string())
                .env("RESULTS", &d)
                .env("CPUS", "1") // what the downward API gives for requests.cpu: "1"
                .env("JOB_COMPLETION_INDEX", index.to_string());
            if !checkpoint {
                c.env("CHECKPOINT", "");
            }
            run_ok(c.arg("-c").arg(&script));
            assert!(d.join(format!("report-{}.json", index + 1)).exists());
        }
        let merged = merge_ok(&shard_files(&d, *shards));
        assert_eq!(merged["game"].as_str(), Some(game.as_str()), "{merged}");
        if i == 0 {
            // The merge job as written (its claim applies to the manifest's game).
            let mut c = shell("/bin/sh");
            c.env("PATH", &path).env("RESULTS", &d).env("CLAIM", &claim);
            run_ok(c.arg("-c").arg(&merge_script));
            assert!(d.join("report.md").exists() && d.join("report.json").exists());
        }
        let _ = std::fs::remove_dir_all(&d);
    }
}

#[test]
fn set_shards_changes_every_marked_count_together() {
    if !have("bash") || !have("sed") {
        eprintln!("no bash or sed: skipped");
        return;
    }
    let d = temp_dir("deploy-set-shards");
    let f = d.join("indexed-job.yaml");
    std::fs::copy(repo().join("deploy/k8s/indexed-job.yaml"), &f).unwrap();
    run_ok(
        shell("bash")
            .arg(repo().join("deploy/k8s/set-shards.sh"))
            .arg("37")
            .arg(&f),
    );
    let docs = docs(&f);
    assert_eq!(str_at(kind(&docs, "ConfigMap"), "/data/SHARDS"), "37");
    let job = kind(&docs, "Job");
    assert_eq!(int_at(job, "/spec/completions"), 37);
    assert_eq!(int_at(job, "/spec/parallelism"), 37);
    let _ = std::fs::remove_dir_all(&d);
}

/// Run task `k` of the Slurm script outside Slurm, with the given settings.
fn slurm_task(
    out: &Path,
    k: u64,
    shards: u64,
    game: &str,
    count: &str,
    args: &str,
    ckpt: bool,
) -> Command {
    let mut c = shell("bash");
    c.arg(repo().join("deploy/slurm/rtplab-array.sbatch"))
        .env("SLURM_ARRAY_TASK_ID", k.to_string())
        .env("SLURM_CPUS_PER_TASK", "1")
        .env("SHARDS", shards.to_string())
        .env("RTPLAB", bin())
        .env("RTPLAB_CACHE", crate::common::test_cache())
        .env("OUT", out)
        .env("GAME", game)
        .env("COUNT", count)
        .env("GAME_ARGS", args)
        .env("SEED", "7");
    if !ckpt {
        c.env("CHECKPOINT", "");
    }
    c
}

#[test]
fn slurm_script_runs_every_game_shard_by_shard_and_the_shards_merge() {
    if !have("bash") {
        eprintln!("no bash: skipped");
        return;
    }
    let ckpt = has_checkpoint();
    let script = std::fs::read_to_string(repo().join("deploy/slurm/rtplab-array.sbatch")).unwrap();
    for needle in [
        "#SBATCH --signal=B:USR1@",
        "#SBATCH --requeue",
        "#SBATCH --time=",
        "#SBATCH --open-mode=append",
        "\"${CHECKPOINT=600s}\"",
        "--shard \"$K/$SHARDS\"",
    ] {
        assert!(script.contains(needle), "sbatch script lacks {needle}");
    }
    for (i, (game, count, args)) in GAMES.iter().enumerate() {
        let d = temp_dir(&format!("deploy-slurm-{i}"));
        for k in 1..=3 {
            let out = run_ok(&mut slurm_task(&d, k, 3, game, count, args, ckpt));
            let log = String::from_utf8_lossy(&out.stderr);
            assert!(log.contains(&format!("--shard {k}/3")), "{log}");
            assert!(log.contains(if ckpt {
                "--checkpoint 600s"
            } else {
                "--shard-out"
            }));
        }
        let single = run_ok(
            crate::common::process()
                .args(["sim", game, "--seed", "7", "--quiet", "--format", "json"])
                .args([
                    match *game {
                        "blackjack" => "--rounds",
                        "baccarat" => "--coups",
                        _ => "--games",
                    },
                    count,
                ])
                .args(args.split_whitespace()),
        );
        let single: Value = serde_json::from_slice(&single.stdout).unwrap();
        let merged = merge_ok(&shard_files(&d, 3));
        for key in [
            "game", "seed", "rtp", "rtp_se", "ev", "rounds", "games", "coups",
        ] {
            assert_eq!(merged.get(key), single.get(key), "{game}: {key}");
        }

        if i == 0 {
            // A task outside 1..SHARDS and a task of another run in the same OUT are refused.
            let o = slurm_task(&d, 4, 3, game, count, args, ckpt)
                .output()
                .unwrap();
            assert_eq!(o.status.code(), Some(2));
            let o = slurm_task(&d, 1, 3, game, "60k", args, ckpt)
                .output()
                .unwrap();
            assert_eq!(o.status.code(), Some(2));
            assert!(String::from_utf8_lossy(&o.stderr).contains("another run"));

            // resubmit-missing.sh: a missing and a truncated shard are listed, nothing else.
            std::fs::remove_file(d.join("shard-2.json")).unwrap();
            let s3 = std::fs::read(d.join("shard-3.json")).unwrap();
            std::fs::write(d.join("shard-3.json"), &s3[..s3.len() / 2]).unwrap();
            let o = run_ok(
                shell("bash")
                    .arg(repo().join("deploy/slurm/resubmit-missing.sh"))
                    .args(["--dry-run", "--force"])
                    .arg(&d)
                    .args(["3", "--partition=long"])
                    .env("RTPLAB", bin())
                    .env("RTPLAB_CACHE", crate::common::test_cache()),
            );
            let text = String::from_utf8_lossy(&o.stdout);
            assert!(text.contains("shard 2/3: missing"), "{text}");
            assert!(
                text.contains("shard 3/3: unfinished or unreadable"),
                "{text}"
            );
            assert!(
                text.contains("sbatch --array=2-3 --partition=long"),
                "{text}"
            );
            assert!(text.contains("GAME=blackjack COUNT=30k"), "{text}");
            // The wrong shard count for the recorded run is refused.
            let o = shell("bash")
                .arg(repo().join("deploy/slurm/resubmit-missing.sh"))
                .args(["--dry-run", "--force"])
                .arg(&d)
                .arg("4")
                .env("RTPLAB", bin())
                .env("RTPLAB_CACHE", crate::common::test_cache())
                .output()
                .unwrap();
            assert_eq!(o.status.code(), Some(2));
        }
        let _ = std::fs::remove_dir_all(&d);
    }
}

#[test]
fn shell_scripts_parse() {
    if !have("bash") {
        eprintln!("no bash: skipped");
        return;
    }
    let scripts = [
        "deploy/slurm/rtplab-array.sbatch",
        "deploy/slurm/resubmit-missing.sh",
        "deploy/slurm/local-cluster-check.sh",
        "deploy/k8s/set-shards.sh",
    ];
    let shellcheck = Command::new("shellcheck").arg("--version").output().is_ok();
    for s in scripts {
        run_ok(shell("bash").arg("-n").arg(repo().join(s)));
        if shellcheck {
            run_ok(Command::new("shellcheck").arg(repo().join(s)));
        }
    }
}
