# SPDX-License-Identifier: MIT
"""The wheel users install (`make wheel`: build/wheel/sutra-*.whl), judged where a user runs it: a
Debian root made for the test by debootstrap, with Python and nothing to build with (no compiler,
no -dev package). The wheel installs there with pip, offline, and `import sutra` opens a bundled
sample. `make wheel-check` builds the wheel and runs these tests; they are not part of `make test`
(the first run makes the root: about 4 minutes, then kept in build/clean-root/).

Needs root (chroot) and debootstrap (scripts/install-deps.sh); where either is absent the tests
skip and say so."""

import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

SOURCE_DIR = Path(__file__).resolve().parents[2]
WHEEL_DIR = SOURCE_DIR / "build" / "wheel"
ROOT_CACHE = SOURCE_DIR / "build" / "clean-root"
SAMPLE = SOURCE_DIR / "resources" / "samples" / "rmsnorm_naive"
# A clean environment for commands in the root: nothing of this machine's pip or Python settings.
ROOT_ENV = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root", "LANG": "C.UTF-8"}
VENV_IN_ROOT = "/opt/sutra-venv"
# Libraries the manylinux policy (PEP 600) lets a wheel take from the system: glibc's and the C++
# runtime. Anything else _core needs must come from the wheel itself (sutra.libs).
SYSTEM_LIBRARIES = re.compile(
    r"^(linux-vdso\.so\.1|ld-linux-x86-64\.so\.2|lib(c|m|dl|rt|pthread|util|resolv)\.so\.\d+"
    r"|libstdc\+\+\.so\.6|libgcc_s\.so\.1|libz\.so\.1)$"
)


# The wheels `make wheel` left, each judged in a root of the Debian release whose python3 it is for:
# bookworm's 3.11 for the cp311 wheel, trixie's 3.13 for the stable-ABI one (CPython 3.12 on).
WHEELS = sorted(WHEEL_DIR.glob("sutra-*.whl"))
ROOT_RELEASES = {"cp311-cp311": "bookworm", "cp312-abi3": "trixie"}


def python_tags(wheel: Path) -> str:
    return "-".join(wheel.name.split("-")[2:4])


@pytest.fixture(scope="session", params=WHEELS or [None], ids=lambda w: python_tags(w) if w else "none")
def wheel(request) -> Path:
    if request.param is None:
        pytest.fail(f"{WHEEL_DIR} has no sutra wheel: run `make wheel`")
    if python_tags(request.param) not in ROOT_RELEASES:
        pytest.fail(f"{request.param.name}: no Debian release is known to have its Python")
    return request.param


def run_in_root(root: Path, command: str, check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run(
        ["chroot", str(root), "/bin/sh", "-c", command], env=ROOT_ENV, capture_output=True, text=True
    )
    if check and result.returncode != 0:
        pytest.fail(
            f"in the clean root, `{command}` failed ({result.returncode}):\n{result.stdout}\n{result.stderr}"
        )
    return result


@pytest.fixture(scope="session")
def root_image(wheel) -> Path:
    """A minimal Debian root with Python 3 and venv: made once by debootstrap (the packages every
    Debian system has, plus python3 and python3-venv) and kept."""
    if os.geteuid() != 0:
        pytest.skip("the clean root needs root: debootstrap and chroot")
    if not shutil.which("debootstrap"):
        pytest.skip("debootstrap is not installed (scripts/install-deps.sh installs it)")
    codename = ROOT_RELEASES[python_tags(wheel)]
    image = ROOT_CACHE / codename
    if (image / "usr" / "bin" / "python3").exists():
        return image
    # Made beside its final place and renamed when whole: a cut-off run leaves no half root.
    ROOT_CACHE.mkdir(parents=True, exist_ok=True)
    partial = ROOT_CACHE / f"{codename}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    command = ["debootstrap", "--variant=minbase", "--include=python3,python3-venv", codename, str(partial)]
    if os.environ.get("SUTRA_DEBIAN_MIRROR"):
        command.append(os.environ["SUTRA_DEBIAN_MIRROR"])
    made = subprocess.run(command, capture_output=True, text=True)
    if made.returncode != 0:
        shutil.rmtree(partial, ignore_errors=True)
        pytest.fail(
            f"debootstrap {codename} failed ({made.returncode}):\n{made.stdout[-3000:]}\n"
            f"{made.stderr[-3000:]}"
        )
    partial.rename(image)
    return image


def requirement_pins(*names: str) -> list[str]:
    """The pinned versions (python/requirements.txt) of the wheel's dependencies."""
    pins = {}
    for line in (SOURCE_DIR / "python" / "requirements.txt").read_text().splitlines():
        name, _, version = line.partition("==")
        if version:
            pins[name.strip()] = f"{name.strip()}=={version.strip()}"
    return [pins[name] for name in names]


def dependency_wheels(root: Path) -> Path:
    """numpy and pandas as wheels for the root's Python, so that the install in the root is offline
    and times pip, not the network."""
    version = run_in_root(root, "python3 -c 'import sys; print(*sys.version_info[:2], sep=\"\")'")
    version = version.stdout.strip()
    folder = WHEEL_DIR / "dependencies" / f"cp{version}"
    fetched = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "-q",
            "--disable-pip-version-check",
            "--only-binary=:all:",
            "--python-version",
            version,
            "-d",
            str(folder),
            *requirement_pins("numpy", "pandas"),
        ],
        capture_output=True,
        text=True,
    )
    if fetched.returncode != 0:
        pytest.fail(f"pip download of numpy and pandas failed:\n{fetched.stderr}")
    return folder


class Installed:
    def __init__(self, root: Path, site_packages: str, dependencies_s: float, sutra_s: float):
        self.root = root
        self.site_packages = site_packages
        self.dependencies_s = dependencies_s
        self.sutra_s = sutra_s


@pytest.fixture(scope="session")
def installed(root_image, wheel, tmp_path_factory) -> Installed:
    """A fresh copy of the root, a venv in it, and the wheel installed there as a user would."""
    root = tmp_path_factory.mktemp("clean-root") / "root"
    subprocess.run(["cp", "-a", str(root_image), str(root)], check=True)
    try:
        shutil.copytree(dependency_wheels(root), root / "wheels")
        shutil.copy2(wheel, root / "wheels" / wheel.name)
        shutil.copytree(SAMPLE, root / "sample")
        run_in_root(root, f"python3 -m venv {VENV_IN_ROOT}")
        pip = f"{VENV_IN_ROOT}/bin/pip install -q --disable-pip-version-check --no-index --find-links /wheels"
        started = time.perf_counter()
        run_in_root(root, f"{pip} {' '.join(requirement_pins('numpy', 'pandas'))}")
        dependencies_s = time.perf_counter() - started
        started = time.perf_counter()
        run_in_root(root, f"{pip} /wheels/{wheel.name}")
        sutra_s = time.perf_counter() - started
        site = run_in_root(
            root,
            f"{VENV_IN_ROOT}/bin/python -c 'import sysconfig; print(sysconfig.get_paths()[\"purelib\"])'",
        ).stdout.strip()
        print(
            f"\n{wheel.name} ({wheel.stat().st_size / 1e6:.1f} MB): pip install {sutra_s:.1f} s "
            f"in the clean root (numpy and pandas before it: {dependencies_s:.1f} s)"
        )
        yield Installed(root, site, dependencies_s, sutra_s)
    finally:
        shutil.rmtree(root.parent, ignore_errors=True)


def test_root_has_no_compiler_and_no_dev_package(installed):
    packages = run_in_root(installed.root, "dpkg-query -W -f='${Package}\\n'").stdout.split()
    assert "python3" in packages
    assert [p for p in packages if "-dev" in p] == []
    tools = run_in_root(
        installed.root,
        "for tool in cc c++ gcc g++ clang ld make cmake; do command -v $tool; done",
        check=False,
    )
    assert tools.stdout == ""


def test_installs_in_seconds(installed):
    assert installed.sutra_s < 30, f"pip install of the wheel took {installed.sutra_s:.1f} s"


def test_module_needs_only_system_libraries(installed):
    modules = list((installed.root / installed.site_packages.lstrip("/") / "sutra").glob("_core*.so"))
    assert len(modules) == 1
    module = f"{installed.site_packages}/sutra/{modules[0].name}"
    ldd = run_in_root(installed.root, f"ldd {module}").stdout
    print(f"\nldd {module}:\n{ldd}")
    bundled_dir = f"{installed.site_packages}/sutra.libs/"
    bundled = []
    for line in ldd.splitlines():
        name, _, resolved = line.strip().partition(" => ")
        name = os.path.basename(name.split(" ")[0])
        assert "not found" not in resolved, line
        if os.path.normpath(resolved.split(" ")[0]).startswith(bundled_dir):
            bundled.append(name)
        else:
            assert SYSTEM_LIBRARIES.match(name), f"{name} comes from the system, not the wheel: {line}"
    assert any(name.startswith("libprotobuf") for name in bundled), bundled
    assert any(name.startswith("libyaml-cpp") for name in bundled), bundled


def test_wheel_is_manylinux_and_bundles_its_libraries(wheel):
    auditwheel = Path(sys.executable).parent / "auditwheel"
    show = subprocess.run([str(auditwheel), "show", str(wheel)], capture_output=True, text=True)
    assert show.returncode == 0, show.stderr
    print(f"\n{show.stdout}")
    platform = re.search(r"-(manylinux_\d+_\d+_x86_64)\.whl$", wheel.name)
    assert platform, f"{wheel.name} has no manylinux tag"
    assert f'"{platform.group(1)}"' in show.stdout
    with zipfile.ZipFile(wheel) as contents:
        names = contents.namelist()
    # A stable-ABI wheel's module must be one too, or CPython 3.13 will not load the 3.12 module.
    modules = [n for n in names if n.startswith("sutra/_core")]
    assert len(modules) == 1 and modules[0].endswith(".abi3.so") == ("-abi3-" in wheel.name), modules
    libs = sorted(n for n in names if n.startswith("sutra.libs/"))
    print("bundled:", *libs, sep="\n  ")
    assert any("libprotobuf" in n for n in libs) and any("libsimdjson" in n for n in libs)


def test_import_sutra_opens_a_sample(installed):
    """`import sutra` in the clean root opens a bundled sample, and its op table is the one the
    project's build-tree module (make python-package, judged by the project's tests) gives on the
    same sample, to the last row; its aten::mul calls are the sample's six, counted with json."""
    script = (
        "import sys, sutra; table = sutra.open(sys.argv[1]).op_table(); "
        "print(table[['name', 'calls', 'self_cpu_ns']].head(8).to_string()); print(table.to_json())"
    )
    in_root = run_in_root(installed.root, f'{VENV_IN_ROOT}/bin/python -c "{script}" /sample').stdout
    print(f"\nop table in the clean root:\n{in_root.rsplit(chr(10), 2)[0]}")
    build_python = SOURCE_DIR / os.environ.get("SUTRA_BUILD", "build/release") / "python"
    if not (build_python / "sutra").is_dir():
        pytest.fail(f"{build_python}/sutra is not built: run `make python-package`")
    in_build = subprocess.run(
        [sys.executable, "-c", script, str(SAMPLE)],
        env={**os.environ, "PYTHONPATH": str(build_python)},
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    table = json.loads(in_root.strip().splitlines()[-1])
    assert table == json.loads(in_build.strip().splitlines()[-1])

    with gzip.open(SAMPLE / "rank0.kineto.json.gz") as trace:
        events = json.load(trace)["traceEvents"]
    muls = sum(
        1 for e in events if e.get("cat") == "cpu_op" and e.get("ph") == "X" and e["name"] == "aten::mul"
    )
    row = next(row for row, name in table["name"].items() if name == "aten::mul")
    assert table["calls"][row] == muls == 6
