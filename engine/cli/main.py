"""Entry point of the ``hybrid`` command: argument parsing and error reporting.

Packages beside the engine (``skin``, ``hip_mechanism``) add their commands through the ``hybridlab.commands``
entry points of pyproject.toml (a module with ``add_parser(sub)``), so the engine never imports them.

Invalid input ends with a one-line message naming the file, the element and the
problem, and exit status 2; a bug shows its traceback (exit status 1).
"""
from __future__ import annotations

import argparse
import os
import sys
from importlib.metadata import entry_points

from ..errors import HybridLabError
from ..version import version_text
from . import analyze, gui, info, make_demo, make_model, report, run, scale, warm_up

PLUGINS = "hybridlab.commands"   # entry points of packages beside the engine that add commands


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hybrid", description="HybridLab: motion analysis of athletes on "
                                     "flexible sport prostheses (headless and batch work).")
    parser.add_argument("--version", action="version", version=f"hybrid {version_text()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    info.add_parser(sub)
    analyze.add_parser(sub)
    make_demo.add_parser(sub)
    make_model.add_parser(sub)
    report.add_parser(sub)
    run.add_parser(sub)
    scale.add_parser(sub)
    warm_up.add_parser(sub)
    for plugin in sorted(entry_points(group=PLUGINS), key=lambda ep: ep.name):
        plugin.load().add_parser(sub)     # e.g. the skin package's `simulate`: the engine never imports it
    gui.add_parser(sub)
    return parser


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["gui"]:             # the application parses its own arguments
        return gui.main(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    args.argv = argv                    # the command line as given (make-demo runs it again in a child)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        return int(args.run(args) or 0)
    except HybridLabError as exc:
        print(f"hybrid {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"hybrid {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:   # output piped into a program that stopped reading (e.g. head)
        sys.stdout = open(os.devnull, "w")
        return 0


if __name__ == "__main__":
    sys.exit(main())
