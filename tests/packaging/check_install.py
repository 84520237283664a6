#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Installs the build into a temporary DESTDIR with prefix /usr, the layout of the .deb, checks
that every file of the desktop integration is there and well formed, and runs the installed
sutra-cli: --version, --help, every subcommand's --help, and `info` on a bundled sample."""

import argparse
import gzip
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
        print(f"FAIL: {message}")
    return condition


def run(argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True, timeout=120, **kw)


def listed_commands(help_text):
    """The subcommands of `sutra-cli --help`: the lines '  name  summary' after 'Commands:'."""
    block = help_text.split("Commands:\n", 1)[1].split("\n\n", 1)[0]
    return [m.group(1) for m in re.finditer(r"^  ([a-z][a-z0-9-]*)\s", block, re.M)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cmake", required=True)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--version", required=True)
    ap.add_argument("--gui", required=True)
    ap.add_argument("--man", required=True)
    ap.add_argument("--samples", required=True)
    ap.add_argument("--fixture", required=True, help="a Kineto trace for `info` without samples")
    a = ap.parse_args()
    on = lambda v: v.upper() in ("ON", "TRUE", "1", "YES")

    with tempfile.TemporaryDirectory(prefix="sutra-install-") as destdir:
        env = dict(os.environ, DESTDIR=destdir)
        r = run([a.cmake, "--install", a.build_dir, "--prefix", "/usr"], env=env)
        if not check(r.returncode == 0, f"cmake --install failed:\n{r.stdout}{r.stderr}"):
            return 1
        usr = os.path.join(destdir, "usr")
        share = os.path.join(usr, "share")
        installed = sorted(
            os.path.relpath(os.path.join(d, f), destdir) for d, _, fs in os.walk(destdir) for f in fs
        )
        print("installed:\n  " + "\n  ".join(installed))

        expected = ["usr/bin/sutra-cli", "usr/share/doc/sutra/copyright"]
        if on(a.gui):
            expected += [
                "usr/bin/sutra",
                "usr/share/applications/sutra.desktop",
                "usr/share/icons/hicolor/scalable/apps/sutra.svg",
                "usr/share/metainfo/io.github.sutra.Sutra.metainfo.xml",
                "usr/share/mime/packages/sutra.xml",
            ]
        if on(a.man):
            expected.append("usr/share/man/man1/sutra-cli.1.gz")
            if on(a.gui):
                expected.append("usr/share/man/man1/sutra.1.gz")
        for path in expected:
            check(path in installed, f"{path} is not installed")
        for path in installed:
            check(os.path.isabs(path) is False and path.startswith("usr/"), f"{path} is outside /usr")

        changelog = os.path.join(share, "doc/sutra/changelog.gz")
        if check(os.path.exists(changelog), "usr/share/doc/sutra/changelog.gz is not installed"):
            top = gzip.open(changelog, "rt").readline()
            check(
                top.startswith(f"sutra ({a.version}) "),
                f"the changelog's newest entry is {top.strip()!r}, the project is {a.version}: "
                "add an entry to packaging/changelog",
            )

        if on(a.gui):
            svg = ET.parse(os.path.join(share, "icons/hicolor/scalable/apps/sutra.svg")).getroot()
            check(svg.tag == "{http://www.w3.org/2000/svg}svg", f"the icon's root is {svg.tag}")
            check(svg.get("viewBox") == "0 0 256 256", "the icon is not square 256x256")
            desktop = open(os.path.join(share, "applications/sutra.desktop")).read()
            check("\nExec=sutra %F\n" in desktop, "the desktop entry does not run `sutra %F`")
            check("\nIcon=sutra\n" in desktop, "the desktop entry's icon is not `sutra`")
            mime = ET.parse(os.path.join(share, "mime/packages/sutra.xml")).getroot()
            ns = "{http://www.freedesktop.org/standards/shared-mime-info}"
            types = [t.get("type") for t in mime.iter(ns + "mime-type")]
            mime_line = re.search(r"^MimeType=(.*)$", desktop, re.M).group(1)
            check(
                mime_line.rstrip(";").split(";") == types,
                f"the desktop entry's MimeType {mime_line} is not the types of sutra.xml {types}",
            )
            meta = ET.parse(os.path.join(share, "metainfo/io.github.sutra.Sutra.metainfo.xml"))
            releases = [r.get("version") for r in meta.getroot().iter("release")]
            check(
                releases[:1] == [a.version],
                f"the metainfo's newest release is {releases[:1]}, the project is {a.version}: "
                "add a <release> to packaging/io.github.sutra.Sutra.metainfo.xml",
            )
            check(
                meta.getroot().findtext("launchable") == "sutra.desktop",
                "the metainfo does not launch sutra.desktop",
            )

        cli = os.path.join(usr, "bin/sutra-cli")
        r = run([cli, "--version"])
        check(
            r.returncode == 0 and r.stdout == f"sutra-cli {a.version}\n",
            f"installed `sutra-cli --version` printed {r.stdout!r} (exit {r.returncode})",
        )
        r = run([cli, "--help"])
        check(
            r.returncode == 0 and r.stdout.startswith("Usage: sutra-cli "),
            f"installed `sutra-cli --help`: exit {r.returncode}, {r.stdout[:80]!r}",
        )
        commands = listed_commands(r.stdout)
        check(len(commands) > 0, "`sutra-cli --help` lists no command")
        # The conventions of every subcommand: --help on stdout with exit 0 and a usage line;
        # a bad option is an error on stderr, nothing on stdout, exit 2.
        for c in commands:
            r = run([cli, c, "--help"])
            check(
                r.returncode == 0 and r.stdout.startswith(f"Usage: sutra-cli {c}"),
                f"`sutra-cli {c} --help`: exit {r.returncode}, stdout {r.stdout[:60]!r}",
            )
            r = run([cli, c, "--no-such-option"])
            check(
                r.returncode == 2 and r.stdout == "" and f"sutra-cli {c}" in r.stderr,
                f"`sutra-cli {c} --no-such-option`: exit {r.returncode} (expected 2), "
                f"stdout {r.stdout[:60]!r}, stderr {r.stderr[:60]!r}",
            )
        r = run([cli, "no-such-command"])
        check(
            r.returncode == 2 and "no-such-command" in r.stderr,
            f"`sutra-cli no-such-command`: exit {r.returncode}, stderr {r.stderr[:60]!r}",
        )

        if on(a.man):
            page = gzip.open(os.path.join(share, "man/man1/sutra-cli.1.gz"), "rt").read()
            check(
                re.search(rf'^\.TH SUTRA-CLI "1" ".*" "sutra-cli {re.escape(a.version)}"', page, re.M)
                is not None,
                "the man page has no .TH line with the version",
            )
            for c in commands:
                check(f".SS {c}\n" in page, f"the man page has no section for `{c}`")

        # `info` on what the package ships: the samples, or (before there are samples) a fixture.
        if "info" in commands:
            samples = os.path.join(share, "sutra/samples")
            traces = (
                sorted(
                    os.path.join(d, f)
                    for d, _, fs in os.walk(samples)
                    for f in fs
                    if f.endswith((".kineto.json.gz", ".et.json.gz"))
                )
                if on(a.samples)
                else []
            )
            target = traces[0] if traces else a.fixture
            r = run([cli, "info", target])
            check(
                r.returncode == 0 and r.stdout.strip() != "",
                f"installed `sutra-cli info {target}`: exit {r.returncode}\n{r.stderr}",
            )
            print(
                f"sutra-cli info {os.path.basename(target)}: exit {r.returncode}, "
                f"{len(r.stdout.splitlines())} lines"
            )
        else:
            print("note: sutra-cli has no `info` command yet; ran --version and --help only")
        if on(a.samples):
            check(os.path.isdir(os.path.join(share, "sutra/samples")), "no share/sutra/samples")

        if on(a.gui):
            gui = os.path.join(usr, "bin/sutra")
            # Without a display: --version and --help only print.
            # Run by name from PATH as a user does: Qt's usage line shows argv[0].
            no_display = {
                k: v
                for k, v in os.environ.items()
                if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
            }
            no_display["PATH"] = os.path.dirname(gui) + os.pathsep + os.environ["PATH"]
            r = run(["sutra", "--version"], env=no_display)
            check(
                r.returncode == 0 and r.stdout == f"sutra {a.version}\n",
                f"installed `sutra --version` printed {r.stdout!r} (exit {r.returncode})",
            )
            r = run(["sutra", "--help"], env=no_display)
            check(
                r.returncode == 0 and r.stdout.startswith("Usage: sutra "),
                f"installed `sutra --help`: exit {r.returncode}, {r.stdout[:60]!r}",
            )

    print(f"{len(failures)} failed" if failures else "all install checks passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
