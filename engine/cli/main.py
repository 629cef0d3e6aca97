"""Entry point of the ``hybrid`` command: argument parsing and error reporting.

Invalid input ends with a one-line message naming the file, the element and the
problem, and exit status 2; a bug shows its traceback (exit status 1).
"""
from __future__ import annotations

import argparse
import os
import sys

from .. import __version__
from ..errors import HybridLabError
from . import analyze, gui, hip_mechanism, info, make_demo, make_model


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hybrid", description="HybridLab: motion analysis of athletes on "
                                     "flexible sport prostheses (headless and batch work).")
    parser.add_argument("--version", action="version", version=f"hybrid {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    info.add_parser(sub)
    analyze.add_parser(sub)
    make_demo.add_parser(sub)
    make_model.add_parser(sub)
    hip_mechanism.add_parser(sub)
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
