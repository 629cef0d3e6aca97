"""The ``--c3d-timeout`` option of the commands that read trials."""
from __future__ import annotations


def add_option(parser) -> None:
    parser.add_argument("--c3d-timeout", type=float, metavar="S",
                        help="seconds allowed to read a C3D file before it is taken for corrupt (default 60 s plus "
                             "2 s per MB)")
