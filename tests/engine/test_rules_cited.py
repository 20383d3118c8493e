"""Each game's numbered rules live beside its code (`engine/<package>/RULES.md`), and the tests
and the code cite them there: every rule has a test that names it, and no test or docstring names
a rule that the file does not have."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = {"timebomb": "TB", "timebomb_evolution": "EV", "machinations": "MM", "holmes": "HO"}


def rule_ids(package: str, prefix: str) -> set[str]:
    """The ids the rules file defines: each opens a paragraph or a scenario in bold."""
    text = (ROOT / "engine" / package / "RULES.md").read_text()
    return set(re.findall(rf"\*\*({prefix}-T?\d+)\b", text))


def cited(paths: list[Path], prefix: str) -> set[str]:
    """Ids named in `paths`: "TB-8" in text, `test_tb8_…` for a rule, and in a scenarios file
    `test_t3_…` or `test_scenario_3_…` for a scenario."""
    found: set[str] = set()
    for path in paths:
        text = path.read_text()
        found |= set(re.findall(rf"\b({prefix}-T?\d+)\b", text))
        found |= {f"{prefix}-{n}" for n in re.findall(rf"def test_{prefix.lower()}(\d+)_", text)}
        if path.name == "test_scenarios.py":
            found |= {f"{prefix}-T{n}" for n in
                      re.findall(r"def test_(?:t|scenario_)(\d+)_", text)}
    return found


@pytest.mark.parametrize("package", GAMES)
def test_every_rule_has_a_test_that_names_it(package):
    prefix = GAMES[package]
    ids = rule_ids(package, prefix)
    assert ids, f"engine/{package}/RULES.md defines no {prefix}-n rule"
    untested = ids - cited(sorted((ROOT / "tests" / package).rglob("*.py")), prefix)
    assert not untested, f"rules of engine/{package}/RULES.md no test names: {sorted(untested)}"


@pytest.mark.parametrize("package", GAMES)
def test_code_and_tests_name_only_rules_the_file_has(package):
    prefix = GAMES[package]
    paths = sorted((ROOT / "tests" / package).rglob("*.py"))
    paths += sorted((ROOT / "engine" / package).rglob("*.py"))
    unknown = cited(paths, prefix) - rule_ids(package, prefix)
    assert not unknown, f"named but not in engine/{package}/RULES.md: {sorted(unknown)}"


def test_no_code_or_test_points_outside_the_repository_for_rules():
    for path in [*ROOT.joinpath("engine").rglob("*.py"), *ROOT.joinpath("tests").rglob("*.py")]:
        assert "shared" + "/rules" not in path.read_text(), path  # split: this file names it
