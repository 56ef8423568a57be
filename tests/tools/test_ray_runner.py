"""`simulate --ray`: a clean message without Ray (or with one too old for token authentication); with
Ray, the very games local workers play, on a local Ray that listens on loopback only, asks for a token,
keeps its files in a private folder, and works from a checkout and from a wheel.

Tests that start Ray take 10-30 s each on two cores: they are few and marked slow. Ray is imported
only by rulelang's own code here (never at the top of this module): a local Ray reads its settings
from the environment when Ray is imported.
"""
from __future__ import annotations

import http.client
import importlib.util
import json
import os
import shutil
import socket
import subprocess
import sys
import sysconfig
import tempfile
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import rulelang
from rulelang.cli import main
from rulelang.lab import ray_runner
from rulelang.lab.simulate import Batch, run_batch

ROOT = Path(__file__).resolve().parents[2]
JF = str(ROOT / "games" / "jacks_friends")
NO_RAY = "Ray is not installed (pip install 'rulelang[ray]' to run these tests)"
needs_ray = pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason=NO_RAY)
SCRIPT = "import sys; from rulelang.cli import main; sys.exit(main())"


def test_without_ray_the_flag_is_a_one_line_usage_error(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)          # import ray now fails, installed or not
    code = main(["simulate", JF, "--players", "4", "--games", "5", "--ray"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.strip() == ("rulelang: error: --ray needs Ray, which is not installed: "
                           "pip install 'rulelang[ray]' (or 'ray[default]>=2.52')")


@pytest.mark.parametrize("version", ["2.40.0", "2.9.3", "2.51.1", "1.13.0", "nightly"])
def test_a_ray_without_token_authentication_is_a_usage_error(capsys, monkeypatch, version):
    real = importlib.util.find_spec
    monkeypatch.setattr(ray_runner.util, "find_spec", lambda name, *more: object() if name == "ray"
                        else real(name, *more))
    monkeypatch.setattr(ray_runner, "installed_ray_version", lambda: version)
    code = main(["simulate", JF, "--players", "4", "--games", "5", "--ray"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.strip() == (f"rulelang: error: --ray needs Ray 2.52 or newer (token authentication), "
                           f"found {version}: pip install -U 'rulelang[ray]'")


@pytest.mark.parametrize("version", ["2.52.0", "2.60.0rc1", "3.0.0.dev0"])
def test_a_ray_with_token_authentication_is_accepted(monkeypatch, version):
    monkeypatch.setattr(ray_runner.util, "find_spec", lambda name, *more: object())
    monkeypatch.setattr(ray_runner, "installed_ray_version", lambda: version)
    ray_runner.require_ray()


def test_the_pinned_minimum_is_the_one_checked():
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'ray = ["ray[default]>={ray_runner.MINIMUM_TEXT}"]' in text


def test_the_job_folder_holds_the_package_and_its_schemas(tmp_path):
    job = ray_runner.make_job_folder(tmp_path)
    assert sorted(p.name for p in job.iterdir()) == ["rulelang", "schemas"]
    assert (job / "rulelang" / "lang" / "grammar.lark").is_file() and (job / "rulelang" / "lab" / "ray_runner.py").is_file()
    assert {p.name for p in (job / "schemas").iterdir()} == {p.name for p in (ROOT / "schemas").glob("*.json")}
    assert not list(job.rglob("__pycache__"))


@pytest.mark.parametrize("address, loopback", [("127.0.0.1:6379", True), ("ray://127.0.0.1:10001", True),
                                               ("localhost:6379", True), ("[::1]:6379", True),
                                               ("10.0.0.1:6379", False), ("ray://head:10001", False),
                                               ("auto", False)])
def test_a_cluster_on_loopback_is_reached_on_loopback(address, loopback):
    """Ray turns 127.0.0.1 into the machine's outward address unless told not to; a cluster started on
    loopback (`ray start --head --node-ip-address=127.0.0.1`) then never answers, and Ray retries for minutes."""
    expected = {"RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0"} if loopback else {}
    assert ray_runner.address_settings(address) == expected


# --- with Ray --------------------------------------------------------------------------------

def _descendants(root: int) -> set[int]:
    """The processes started, directly or not, by ``root`` (Ray's servers and workers, for the driver)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _listening_addresses(pids: set[int]) -> list[tuple[str, int]]:
    """(address, port) of every TCP socket these processes listen on, from /proc/net/tcp and tcp6."""
    inodes = set()
    for pid in pids:
        try:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    inodes.add(target[8:-1])
        except OSError:
            continue
    found = []
    for table, size in (("/proc/net/tcp", 4), ("/proc/net/tcp6", 16)):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:          # 0A: LISTEN
                address, port = fields[1].split(":")
                found.append((_address(bytes.fromhex(address), size), int(port, 16)))
    return found


def _address(raw: bytes, size: int) -> str:
    """An address of /proc/net/tcp*, kept there as 32-bit words in host order (little-endian here)."""
    words = b"".join(raw[i:i + 4][::-1] for i in range(0, size, 4))
    return socket.inet_ntop(socket.AF_INET if size == 4 else socket.AF_INET6, words)


def _loopback(address: str) -> bool:
    return address.startswith("127.") or address in ("::1",) or address.startswith("::ffff:127.")


def _job_submitted_without_token(port: int) -> bool:
    """Whether a job-submission request without a token is taken on this port (the attack of issue 29)."""
    body = json.dumps({"entrypoint": "true"}).encode()
    request = urllib.request.Request(f"http://127.0.0.1:{port}/api/job_agent/jobs/", data=body, method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=3) as answer:
            return 200 <= answer.status < 300
    except (urllib.error.URLError, http.client.HTTPException, OSError, ValueError):
        return False


@pytest.fixture
def short_tmp(monkeypatch):
    """A short private temporary root (Ray's socket paths must stay under 108 characters) for mkdtemp."""
    root = tempfile.mkdtemp(prefix="rl")
    monkeypatch.setattr(tempfile, "tempdir", root)
    yield Path(root)
    os.rmdir(root)                            # fails the test if the run left anything behind


@needs_ray
@pytest.mark.slow
def test_a_local_ray_plays_the_same_games_on_loopback_only(tmp_path, monkeypatch, short_tmp):
    """Started from elsewhere than the checkout (the nodes must get the schemas), it plays the local
    workers' games, a policy named by a relative path included; while it runs, it listens on loopback only, takes no job without the token, keeps
    its files in a 0700 folder of ours, and leaves nothing behind (not even ~/.ray/auth_token)."""
    from rulelang.lab.ray_runner import run_batch_ray
    from rulelang.spec.loader import load_document

    monkeypatch.chdir(tmp_path)
    token_file = Path.home() / ".ray" / "auth_token"
    token_before = token_file.exists()
    seen: dict = {}

    def look(done: int) -> None:
        if not seen:
            seen["listening"] = _listening_addresses(_descendants(os.getpid()))
            seen["folders"] = [(p.name, p.stat().st_mode & 0o777, p.stat().st_uid) for p in short_tmp.iterdir()]
            seen["taken"] = [port for _, port in seen["listening"] if _job_submitted_without_token(port)]

    shutil.copyfile(Path(JF) / "policies" / "giant.yaml", tmp_path / "giant.yaml")   # read on the nodes
    batch = Batch(JF, 4, 30, 9, ("policy:giant.yaml", "random", "random", "random"))
    local = run_batch(rulelang.load_game(JF), batch, workers=1)
    on_ray = run_batch_ray(load_document(JF), batch, None, progress=look, chunk=7)
    assert on_ray == local
    assert [r.index for r in on_ray] == list(range(30)) and not any(r.error for r in on_ray)
    assert len(seen["listening"]) >= 3                     # the GCS, the raylet, the workers... were found
    assert [a for a in seen["listening"] if not _loopback(a[0])] == []
    assert seen["taken"] == []
    [(name, mode, owner)] = seen["folders"]
    assert name.startswith("rulelang-ray-") and mode == 0o700 and owner == os.getuid()
    assert "RAY_AUTH_TOKEN" not in os.environ              # the run's token went with it
    assert token_file.exists() == token_before


@needs_ray
@pytest.mark.slow
def test_a_failing_worker_is_one_line_of_ours(tmp_path, monkeypatch, capsys, short_tmp):
    """Nodes that cannot import rulelang (here: a job folder without the schemas, what an editable
    install shipped before) make one error line and exit 1, never the workers' traceback."""
    real = ray_runner.make_job_folder

    def without_schemas(folder: Path) -> Path:
        job = real(folder)
        for schema in (job / "schemas").iterdir():
            schema.unlink()
        (job / "schemas").rmdir()
        return job

    monkeypatch.setattr(ray_runner, "make_job_folder", without_schemas)
    monkeypatch.chdir(tmp_path)
    code = main(["simulate", JF, "--players", "4", "--games", "5", "--ray"])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert "Traceback" not in err and "File \"" not in err
    first, hint = err.strip().splitlines()
    assert first.startswith("error: a Ray task failed: ") and "schema" in first     # the schemas it lacks
    assert hint == "hint: see 'Beyond one machine: Ray' in docs/simulate.md"


@needs_ray
@pytest.mark.subprocess
@pytest.mark.parametrize("address", ["127.0.0.1:1",      # each a child process that imports Ray: seconds
                                     pytest.param("ray://127.0.0.1:1", marks=pytest.mark.slow)])
def test_an_address_where_nothing_answers_is_one_line_at_once(tmp_path, address):
    """Ray itself retries such an address for minutes, printing as it goes (a child process: an
    address other than a local Ray must not be the first to import Ray in this one)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", SCRIPT, "simulate", JF, "--players", "4", "--games", "3",
                           f"--ray={address}"], capture_output=True, text=True, timeout=60, cwd=tmp_path, env=env)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.splitlines() == [f"error: cannot connect to Ray at {address}: nothing answers there "
                                        "(Connection refused)",
                                        "hint: see 'Beyond one machine: Ray' in docs/simulate.md"]


def _source_copy(to: Path) -> Path:
    """What a wheel is built from, copied, so that building leaves no build/ or egg-info in the checkout."""
    to.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copyfile(ROOT / name, to / name)
    for name in ("rulelang", "schemas"):
        shutil.copytree(ROOT / name, to / name, ignore=shutil.ignore_patterns("__pycache__"))
    return to


@needs_ray
@pytest.mark.slow
@pytest.mark.subprocess
def test_a_wheel_install_plays_on_ray(tmp_path):
    """rulelang built as a wheel and installed into a fresh virtual environment (which sees this one's
    packages, Ray included, after its own) plays the batch on a local Ray, from a folder of its own."""
    wheels, venv, elsewhere = tmp_path / "wheels", tmp_path / "venv", tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels),
                            str(_source_copy(tmp_path / "source"))],
                           capture_output=True, text=True, timeout=600, env=env)
    if built.returncode != 0:
        pytest.skip(f"cannot build a wheel here (pip needs setuptools>=68): {built.stderr.strip()[-300:]}")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    own = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                              capture_output=True, text=True, check=True).stdout.strip())
    (own / "base.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")       # after the venv's own
    [wheel] = wheels.glob("rulelang-*.whl")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                    str(wheel)], check=True, timeout=300, env=env, capture_output=True)
    where = subprocess.run([python, "-c", "import rulelang; print(rulelang.__file__)"], cwd=elsewhere, env=env,
                           capture_output=True, text=True, check=True).stdout.strip()
    assert where.startswith(str(own))

    def summary(*how: str) -> dict:
        done = subprocess.run([venv / "bin" / "rulelang", "simulate", JF, "--players", "4", "--games", "12",
                               "--seed", "3", "--json", *how], cwd=elsewhere, env=env, capture_output=True,
                              text=True, timeout=600)
        assert done.returncode == 0 and done.stderr == "", done.stderr[-2000:]
        return json.loads(done.stdout.splitlines()[-1])

    assert summary("--ray") == summary("--workers", "1")
