"""The restoration lab: what trains, tunes, measures and describes a model, apart from the runtime
(editor.restore) that the editor and `stet restore` run.

    data          training and dev text -> words and joint labels, cached as arrays
    train_config  what a training run is given, and the `stet train` options derived from it
    train         `stet train`: the training loop, resumable
    tune          a run's best checkpoint -> a shipped model directory, tuned on dev
    evaluate      the metrics (P/R/F1, slot error rate, calibration, case)
    scoring       a restorer scored on reference files (`stet eval`)
    card          MODEL_CARD.md from the measured reports
    cli           `stet eval` and `stet train`

The runtime never imports the lab (an import-linter contract in pyproject.toml); the lab imports
the runtime freely.
"""
