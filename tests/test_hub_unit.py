"""deploy/jupyterhub/baccarat-hub.service, read as data (no systemd on these machines): it runs
exactly the command `make hub` runs (start only, never the set-up), as root, from the clone,
restarted after a crash, with settings the config really reads; `make hub-unit` writes it with
this clone's path."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
UNIT = REPO / "deploy" / "jupyterhub" / "baccarat-hub.service"
CONFIG = REPO / "deploy" / "jupyterhub" / "jupyterhub_config.py"
CLONE = "/srv/baccarat-kit"


def parse(text: str) -> dict[str, list[tuple[str, str]]]:
    """``{section: [(key, value), …]}``, as systemd reads a unit: keys may repeat, ``#`` and
    ``;`` lines are comments."""
    out: dict[str, list[tuple[str, str]]] = {}
    section = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1]
            out.setdefault(section, [])
            continue
        key, sep, value = line.partition("=")
        assert section is not None and sep and key.strip() == key, f"line {number}: {raw!r}"
        out[section].append((key, value))
    return out


def one(entries: list[tuple[str, str]], key: str) -> str:
    values = [v for k, v in entries if k == key]
    assert len(values) == 1, (key, values)
    return values[0]


def own_make_env() -> dict[str, str]:
    """The environment without what an outer make passes down (``make test-fast VENV=.venv-3.13``
    puts VENV in every recipe's environment, and ``VENV ?= .venv`` takes it): the test reads the
    Makefile's own defaults, which are what the unit names."""
    passed_down = {"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "VENV", "PYTHON"}
    return {k: v for k, v in os.environ.items() if k not in passed_down}


def make_dry_run(*args: str) -> list[str]:
    if not shutil.which("make"):
        pytest.skip("make not installed")
    out = subprocess.run(["make", "-n", "-s", *args], cwd=REPO, capture_output=True, text=True, check=True,
                         env=own_make_env()).stdout
    return [line for line in out.splitlines() if line.strip()]


def test_the_unit_runs_what_make_hub_runs_as_root_restarted_after_a_crash() -> None:
    unit = parse(UNIT.read_text(encoding="utf-8"))
    service = unit["Service"]
    assert one(service, "User") == "root"  # the hub makes users and cgroups, then drops to each learner
    assert one(service, "WorkingDirectory") == CLONE
    assert one(service, "Restart") == "always" and int(one(service, "RestartSec")) > 0
    assert one(unit["Install"], "WantedBy") == "multi-user.target"  # started at boot
    # ExecStart: the program and arguments of `make hub`'s last line, the clone's paths absolute
    env = dict(v.split("=", 1) for k, v in service if k == "Environment")
    argv = shlex.split(one(service, "ExecStart"))
    [line] = [x for x in make_dry_run("hub", "HUB_PREFIX=/opt/baccarat-hub") if "jupyterhub -f" in x]
    words = shlex.split(line)
    make_env = dict(w.split("=", 1) for w in words if re.fullmatch(r"[A-Z_]+=.*", w))
    make_argv = [w for w in words if not re.fullmatch(r"[A-Z_]+=.*", w)]
    assert argv == [f"{CLONE}/{w}" if (REPO / w).exists() else w for w in make_argv], (argv, make_argv)
    assert argv[0] == f"{CLONE}/.venv/bin/jupyterhub" and argv[1:] == ["-f", f"{CLONE}/deploy/jupyterhub/jupyterhub_config.py"]
    assert make_env.items() <= env.items(), (make_env, env)
    # start only: nothing of the set-up (`hub setup`, uv, pip) in the unit or in `make hub`
    text = UNIT.read_text(encoding="utf-8")
    assert not any(w in one(service, "ExecStart") for w in ("setup", "pip", "uv "))
    assert not [k for k, _ in service if k in ("ExecStartPre", "ExecStartPost")]
    assert not any("hub setup" in x or "uv" in x.split() for x in make_dry_run("hub"))
    # every setting it names is one the config reads
    read = set(re.findall(r"environ\.get\(\s*['\"]([A-Z_]+)['\"]", CONFIG.read_text(encoding="utf-8")))
    assert {k for k in env if k.startswith("BACCARAT_HUB_")} <= read, (env, read)
    assert one(service, "EnvironmentFile").lstrip("-") == "/etc/baccarat-hub.env"
    # the hub stops learners' servers itself (SIGTERM to it alone), the rest killed after a timeout
    assert one(service, "KillMode") == "mixed" and int(one(service, "TimeoutStopSec")) >= 30
    assert "make hub-unit" in text and "systemctl enable --now baccarat-hub" in text


def test_make_hub_unit_writes_it_with_this_clones_paths(tmp_path: Path) -> None:
    if not shutil.which("make"):
        pytest.skip("make not installed")
    subprocess.run(["make", "-s", "hub-unit", f"UNIT_DIR={tmp_path}", "HUB_PREFIX=/srv/hub-test"], cwd=REPO,
                   check=True, capture_output=True, env=own_make_env())
    service = parse((tmp_path / "baccarat-hub.service").read_text(encoding="utf-8"))["Service"]
    argv = shlex.split(one(service, "ExecStart"))
    assert argv[0] == str(REPO / ".venv" / "bin" / "jupyterhub") and Path(argv[2]) == CONFIG
    assert Path(one(service, "WorkingDirectory")) == REPO
    assert ("Environment", "BACCARAT_HUB_PREFIX=/srv/hub-test") in service
