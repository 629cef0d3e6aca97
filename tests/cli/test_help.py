"""Every option a command's help names is one of the command's options: ``hybrid analyze --help`` named as options
only those ``hybrid analyze`` parses (an audit read '--id-setup' in it, which no command has: OpenSim ID setups are
run by ``hybrid run``)."""
import argparse
import re

import pytest

from engine.cli.analyze import parse_arguments
from engine.cli.main import build_parser

OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
"""An option's name as help text writes it ('--filter-loads'; not the '--' of a range, nor a word with a hyphen)."""


def commands(monkeypatch) -> dict:
    monkeypatch.setenv("COLUMNS", "100000")           # help on one line: argparse wraps its text at hyphens
    parser = build_parser()
    return next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices


def test_the_pattern_finds_the_options_as_help_writes_them():
    assert OPTION.findall("--ik-setup IK_SETUP, with --muscles: 'a--b', -- and --x2, 1--2, --objective {seed,opensim}") \
        == ["--ik-setup", "--muscles", "--x2", "--objective"]


def test_every_option_a_commands_help_names_is_one_of_its_options(monkeypatch):
    for name, command in commands(monkeypatch).items():
        text = command.format_help()
        named = set(OPTION.findall(text))
        assert named <= set(command._option_string_actions), (name, named - set(command._option_string_actions))
    assert "--id-setup" not in commands(monkeypatch)["analyze"].format_help()


def test_every_option_analyzes_help_names_parses_and_sets_its_value(monkeypatch):
    command = commands(monkeypatch)["analyze"]
    named = sorted(set(OPTION.findall(command.format_help())) - {"--help"})
    assert {"--ik-setup", "--external-loads", "--actuators", "--muscles", "--c3d-timeout"} <= set(named)
    for option in named:
        action = command._option_string_actions[option]
        given = [] if action.nargs == 0 else [str((action.choices or ["2"])[-1])]
        parsed = getattr(parse_arguments([option, *given]), action.dest)
        default = getattr(parse_arguments([]), action.dest)
        assert parsed != default, option
    with pytest.raises(SystemExit):
        parse_arguments(["--id-setup", "setup.xml"])
