"""``hybrid scale``: a generic model scaled to a subject from a static trial (OpenSim's ScaleTool)."""
from __future__ import annotations

from pathlib import Path


def add_parser(sub) -> None:
    p = sub.add_parser("scale", help="scale a generic model to a subject from a static trial",
                       description="Scales a generic model (.osim or .yaml) to a subject as OpenSim's Scale tool "
                                   "does, from a ScaleTool setup file (measurements of marker pairs, manual "
                                   "factors, mass, marker placement): writes the scaled model (.osim in the "
                                   "generic model's schema, and .yaml), the scale factors applied, the static pose "
                                   "and residual tables per marker pair and per marker. Without a setup, segments "
                                   "are scaled by the distances between the markers nearest their joint centres. "
                                   "Rods (a blade) are products and never scale.")
    p.add_argument("generic", help="generic model (.osim or .yaml); overrides the setup's model file")
    p.add_argument("--setup", help="OpenSim ScaleTool setup (.xml); file names in it are read relative to it")
    p.add_argument("--static", help="static trial (.trc, .c3d); overrides the setup's marker files")
    p.add_argument("--mass", type=float, help="subject's mass, kg (prosthesis included); overrides the setup's")
    p.add_argument("--out", help="scaled model to write (.osim or .yaml); other outputs are written beside it")
    p.set_defaults(run=run_command)


def run_command(args) -> int:
    from ..io.scale_files import scale_steps, write_scale_outputs
    from ..progress import run as run_steps
    from ..trial.body_measures import check_mass
    if args.mass is not None:
        check_mass(args.mass, "--mass", "--mass")           # as hybrid analyze checks it: named by its option
    run, setup = run_steps(scale_steps(args.setup, args.generic, args.static, args.mass))
    result = run.result
    for name, f in result.scaled.factors.items():
        if not (f == 1.0).all():
            print(f"  {name:<24s} {f[0]:.4f} {f[1]:.4f} {f[2]:.4f}")
    print(f"total mass {result.model.total_mass:.3f} kg")
    if result.placement is not None:
        errors = [r.error for r in result.placement.residuals if r.weight > 0]
        worst = max(result.placement.residuals, key=lambda r: r.error if r.weight > 0 else -1)
        print(f"static pose: marker RMS {1e3 * (sum(e * e for e in errors) / len(errors)) ** 0.5:.1f} mm, "
              f"worst {worst.name} {1e3 * worst.error:.1f} mm")
    for note in result.notes:
        print(f"note: {note}")
    for path in write_scale_outputs(run, setup, args.out):
        print(f"wrote {Path(path).resolve()}")
    return 0
