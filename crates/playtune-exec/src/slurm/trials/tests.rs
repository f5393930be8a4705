use super::*;
use playtune::AlgoConfig;
use playtune::optim::brmhc::BrmhcConfig;
use playtune::optim::ntbea::NtbeaConfig;
use playtune::optim::rmhc::RmhcConfig;
use playtune::rng::derive_seed;
use playtune::run::ProblemSpec;

fn small() -> (SearchSet, Box<dyn Problem>) {
    let spec = ProblemSpec {
        name: "space-battle".into(),
        settings: [("max_ticks", "120"), ("mcts_iterations", "5")]
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    };
    let problem = playtune::registry::build_problem(&spec, None).unwrap();
    // The paper's three algorithms, as the optimiser comparison runs them.
    let algorithms = [
        ("RMHC", AlgoConfig::Rmhc(RmhcConfig::default())),
        (
            "B-RMHC",
            AlgoConfig::Brmhc(BrmhcConfig {
                free_preprocessing: true,
                ..Default::default()
            }),
        ),
        ("NTBEA", AlgoConfig::Ntbea(NtbeaConfig::paper())),
    ];
    let searches = algorithms
        .into_iter()
        .enumerate()
        .map(|(ai, (name, algorithm))| Entry {
            folder: name.to_lowercase(),
            name: name.into(),
            config: RunConfig::plain(
                spec.clone(),
                problem.space().clone(),
                algorithm,
                4,
                2,
                derive_seed(3, &[ai as u64]),
            ),
        })
        .collect();
    (SearchSet { searches }, problem)
}

fn prepare(set: &SearchSet, home: &Path) -> Folder {
    let folder = Folder::new(home);
    std::fs::create_dir_all(folder.tasks()).unwrap();
    write_set(&folder, set).unwrap();
    for si in 0..set.searches.len() {
        run::reuse_or_create_run_dir(&folder.run_dir(set, si), &set.searches[si].config).unwrap();
    }
    folder
}

/// The tasks' path without a cluster: every trial computed by `run_task` (one of
/// them twice, as a rerun after a kill would), collected, then replayed, logs what
/// the local run logs, byte for byte; progress sees every item done.
#[test]
fn tasks_then_collection_equal_the_local_run() {
    let (set, problem) = small();
    let p = [problem.as_ref(); 3];
    let local = tempfile::TempDir::new().unwrap();
    for e in &set.searches {
        let dir = local.path().join(&e.folder);
        run::reuse_or_create_run_dir(&dir, &e.config).unwrap();
        run::execute(Some(&dir), &e.config, problem.as_ref(), None).unwrap();
    }
    let dir = tempfile::TempDir::new().unwrap();
    let folder = prepare(&set, &dir.path().join("x"));
    let before = progress(&folder, &set, &p).unwrap();
    assert_eq!((before.done.len(), before.missing.len()), (0, 6));
    let items: Vec<WorkItem> = before.missing.iter().copied().collect();
    let submission = Submission {
        kind: KIND.into(),
        job: Some("1".into()),
        items: items.clone(),
        submitted_at: 0,
    };
    let text = ron::ser::to_string_pretty(&submission, Default::default()).unwrap();
    std::fs::write(folder.submission(0), text).unwrap();
    for i in 0..items.len() {
        run_task(&folder.cluster(), 0, i).unwrap();
    }
    assert!(
        run_task(&folder.cluster(), 0, 2)
            .unwrap()
            .contains("already done")
    );
    assert!(run_task(&folder.cluster(), 0, 6).is_err());
    assert_eq!(collect(&folder, &set, &p).unwrap(), 6);
    let after = progress(&folder, &set, &p).unwrap();
    assert_eq!((after.done.len(), after.missing.len()), (6, 0));
    for e in &set.searches {
        let f = format!("{}/evals.csv", e.folder);
        let read = |d: &Path| std::fs::read(d.join(&f)).unwrap();
        assert_eq!(read(local.path()), read(&folder.home), "{f}");
    }
    // Other searches under the same folder are refused.
    let mut other = set.clone();
    other.searches[0].config.seed += 1;
    assert!(
        write_set(&folder, &other)
            .unwrap_err()
            .to_string()
            .contains("other searches")
    );
}

/// A task killed part way resumes from its partial folder: evaluations it logged
/// are not evaluated again.
#[test]
fn a_partial_task_resumes_from_its_log() {
    let (set, _) = small();
    let dir = tempfile::TempDir::new().unwrap();
    let folder = prepare(&set, &dir.path().join("x"));
    let item = WorkItem {
        search: 0,
        trial: 1,
    };
    let submission = Submission {
        kind: KIND.into(),
        job: None,
        items: vec![item],
        submitted_at: 0,
    };
    let text = ron::ser::to_string_pretty(&submission, Default::default()).unwrap();
    std::fs::write(folder.submission(0), text).unwrap();
    let line = run_task(&folder.cluster(), 0, 0).unwrap();
    assert!(line.contains("4 evaluations"), "{line}");
    // Make it partial again, less its last evaluation row.
    let done = folder.tasks().join(item.folder(&set));
    let partial = folder
        .tasks()
        .join(format!("{}{PARTIAL}", item.folder(&set)));
    std::fs::rename(&done, &partial).unwrap();
    let text = std::fs::read_to_string(partial.join(files::LOG_FILE)).unwrap();
    let kept: Vec<&str> = text.lines().take(4).collect();
    std::fs::write(partial.join(files::LOG_FILE), kept.join("\n") + "\n").unwrap();
    let line = run_task(&folder.cluster(), 0, 0).unwrap();
    assert!(line.contains("1 evaluations"), "{line}");
}
