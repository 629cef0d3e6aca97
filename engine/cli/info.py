"""``hybrid info FILE``: summarise a model or a trial."""
from __future__ import annotations

from ..io.open import is_model_file, open_model
from ..model.summary import describe_model
from . import c3d_timeout


def add_parser(sub) -> None:
    p = sub.add_parser("info", help="summarise a model (.yaml, .osim) or a trial (.c3d, .trc, .mot, .sto)",
                       description="Summarise a model (bodies, DoF, rods, markers, muscles, import warnings) "
                                   "or a trial (duration, rates, marker gaps, plates, EMG, axes).")
    p.add_argument("file", help="model or trial file")
    c3d_timeout.add_option(p)
    p.set_defaults(run=run)


def run(args) -> int:
    if is_model_file(args.file):
        print(describe_model(open_model(args.file)))
        return 0
    from ..io.open_trial import open_trial
    from ..trial.summary import describe_trial
    print(describe_trial(open_trial(args.file, c3d_timeout=args.c3d_timeout)))
    return 0
