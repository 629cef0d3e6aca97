"""``hybrid make-model``: the default athlete scaled to a subject's height and mass, saved as a model file."""
from __future__ import annotations

from pathlib import Path


def add_parser(sub) -> None:
    p = sub.add_parser("make-model", help="build the default athlete model for a subject's height and mass",
                       description="Builds the default model (transtibial amputee on a J-shaped blade) scaled to "
                                   "the subject: segment lengths with height, segment masses and inertias with "
                                   "height and mass (de Leva's tables), the residual limb and the muscles' fibre "
                                   "and tendon lengths with the limb. The blade and socket are the prosthesis's "
                                   "and do not scale.")
    p.add_argument("--height", type=float, required=True, help="subject's height, m")
    p.add_argument("--mass", type=float, required=True, help="subject's mass with the prosthesis, kg")
    p.add_argument("--out", required=True, help="model file to write (.yaml)")
    p.add_argument("--no-muscles", action="store_true", help="leave the muscles out")
    p.set_defaults(run=run_command)


def run_command(args) -> int:
    from ..demo.athlete import build_athlete
    from ..io.model_file import save_model
    from ..trial.body_measures import check_height, check_mass
    check_height(args.height, "--height", "--height")          # the ranges hybrid analyze and a study take
    check_mass(args.mass, "--mass", "--mass")
    model = build_athlete(args.height, args.mass, with_muscles=not args.no_muscles)
    save_model(model, args.out)
    print(f"wrote {Path(args.out).resolve()} ({args.height} m, {args.mass} kg)")
    return 0
