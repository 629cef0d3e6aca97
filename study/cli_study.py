"""``hybrid study init FOLDER``: a study file proposed from a lab's folder of captures (``study.propose``)."""
from __future__ import annotations

from pathlib import Path


def add_parser(sub) -> None:
    p = sub.add_parser("study", help="propose a study file (study.yaml) from a folder of subjects' captures",
                       description="'init' proposes a study file for 'hybrid batch' from a folder laid out as labs "
                                   "store captures (one folder per subject, sessions inside; C3D/TRC trials, a "
                                   "model, a ScaleTool setup and a static trial; a subject without a model has its "
                                   "trials analysed alone, its height and mass read from its C3D trials) and lists "
                                   "what it could not match.")
    p.add_argument("action", choices=("init",))
    p.add_argument("folder", help="the lab's folder (one sub-folder per subject)")
    p.add_argument("--out", help="study file to write (default FOLDER/study.yaml); never overwritten")
    p.set_defaults(run=run_command)


def run_command(args) -> int:
    from engine.errors import SettingsError

    from .description import load_study
    from .propose import propose_study, write_study
    out = Path(args.out) if args.out else Path(args.folder) / "study.yaml"
    if out.exists():
        raise SettingsError("exists already: give another --out (a study file is never overwritten)", file=out)
    body, proposed, unmatched, notes = propose_study(args.folder, out)
    for line in proposed:
        print(f"proposed: {line}")
    for line in unmatched:
        print(f"not matched: {line}")
    if not body["subjects"]:
        raise SettingsError("no subject could be proposed (see the lines above)", file=Path(args.folder))
    write_study(out, body, notes)
    study = load_study(out)        # what was written reads back as a valid study
    print(f"wrote {out.resolve()}: {len(study.subjects)} subjects, {len(study.trials)} trials; "
          f"{len(unmatched)} items not matched")
    return 0
