"""The batch form of `stet restore`, `stet transcribe` and `stet convert` (chosen by editor.cli)."""

from __future__ import annotations

import argparse
import sys

from editor.batch.jobs import ConvertJob, Job, RestoreJob, TranscribeJob
from editor.batch.plan import make_plan
from editor.batch.progress import BatchProgress

EXIT_OK, EXIT_FAILED = 0, 1


def job_for(args: argparse.Namespace) -> Job:
    if args.batch == "restore":
        from editor.restore import pass_settings

        return RestoreJob(args.model, args.device, args.min_confidence, pass_settings(args))
    if args.batch == "transcribe":  # the model, and so the language, chosen once for all files
        from editor.asr.choice import choose_model

        if args.speakers is not None:  # a missing extra is said before any file is read
            from editor.asr.speakers import check_installed

            check_installed()
        return TranscribeJob(choose_model(args.model, args.language, announce=True).path, args.verbose,
                             speakers=args.speakers, turn_times=getattr(args, "turn_times", False))
    from editor.core.document.speakers import parse_renames

    return ConvertJob(args.policy, parse_renames(args.speaker or ()), getattr(args, "commas", None),
                      turn_times=getattr(args, "turn_times", False))


def run_batch(args: argparse.Namespace) -> int:
    """Plan, run, summarise. Exit 0 when every input succeeded (or was already done), else 1."""
    from editor.core.formats import can_write
    from editor.core.threads import THREADS_PER_PROCESS, free_cores, user_thread_count

    from editor.commandline.arguments import layout_from_args

    job = job_for(args)
    job.encoding = getattr(args, "encoding", None)
    job.layout = layout_from_args(args)
    plan = make_plan(getattr(args, args.batch_inputs), out_dir=args.output,
                     to=args.to or args.batch_default_to, recursive=args.recursive,
                     force=args.force, wanted=job.wanted, writable=can_write)
    for _, why in plan.refused:
        print(f"stet: error: {' '.join(why.split())}", file=sys.stderr)
    tracker = BatchProgress(plan.todo, job.verb, quiet=getattr(args, "quiet", False), skipped=len(plan.skipped),
                            refused=len(plan.refused))
    address = getattr(args, "ray", None)
    try:
        if not plan.todo:
            pass
        elif address:
            from editor.batch.cluster import run_ray

            run_ray(job, plan.todo, tracker, address=address, workers=args.jobs)
        else:
            from editor.batch.local import run_in_process, run_local

            workers = min(args.jobs or free_cores(), len(plan.todo))
            if workers == 1 and not job.uses_model:
                run_in_process(job, plan.todo, tracker)
            else:  # cores are used by workers, one compute thread each (editor.core.threads)
                run_local(job, plan.todo, tracker, workers=workers,
                          threads=user_thread_count() or THREADS_PER_PROCESS)
    finally:
        tracker.close()
    failed = len(tracker.failures) + len(plan.refused)
    return EXIT_OK if not failed and tracker.finished == len(plan.todo) else EXIT_FAILED
