#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Builds the .deb with CPack from the build tree into a temporary folder and checks it: the
control fields, the files it installs, and that Depends names the Debian package of every shared
library the packaged binaries link directly (what dpkg-shlibdeps is there to find).
Usage: check_deb.py CPACK BUILD_DIR VERSION GUI(ON|OFF) MAN(ON|OFF)"""

import os
import re
import subprocess
import sys
import tempfile


def run(argv, **kw):
    return subprocess.run(argv, capture_output=True, text=True, timeout=300, **kw)


def owning_packages(paths):
    """The Debian package that holds each library, with one dpkg query: the path as ldd gives it
    and as dpkg may have registered it across the /usr merge (/lib vs /usr/lib)."""
    variants = {}
    for path in paths:
        for p in {path, os.path.realpath(path)}:
            for v in (p, p[4:] if p.startswith("/usr/") else "/usr" + p):
                variants.setdefault(v, path)
    owners = {}
    for line in run(["dpkg", "-S", *sorted(variants)]).stdout.splitlines():
        package, _, registered = line.partition(": ")
        if registered in variants:
            owners[variants[registered]] = package.split(":")[0]
    return owners


def main():
    cpack, build_dir, version, gui, man = sys.argv[1:6]
    build_dir = os.path.abspath(build_dir)
    on = lambda v: v.upper() in ("ON", "TRUE", "1", "YES")
    failures = []

    def check(condition, message):
        if not condition:
            failures.append(message)
            print(f"FAIL: {message}")

    arch = run(["dpkg", "--print-architecture"]).stdout.strip()
    with tempfile.TemporaryDirectory(prefix="sutra-deb-") as out:
        r = run(
            [cpack, "-G", "DEB", "--config", os.path.join(build_dir, "CPackConfig.cmake"), "-B", out],
            cwd=build_dir,
        )
        deb = os.path.join(out, f"sutra_{version}_{arch}.deb")
        if r.returncode != 0 or not os.path.exists(deb):
            print(f"FAIL: cpack (exit {r.returncode}) did not write {deb}:\n{r.stdout}{r.stderr}")
            return 1
        info = run(["dpkg-deb", "--info", deb]).stdout
        print(info)
        field = lambda name: run(["dpkg-deb", "--field", deb, name]).stdout.strip()
        check(field("Package") == "sutra", f"Package is {field('Package')!r}")
        check(field("Version") == version, f"Version is {field('Version')!r}, not {version}")
        check(field("Architecture") == arch, f"Architecture is {field('Architecture')!r}")
        check(field("Section") == "devel", f"Section is {field('Section')!r}")
        check(
            re.fullmatch(r".+ <[^@ ]+@[^> ]+>", field("Maintainer")) is not None,
            f"Maintainer {field('Maintainer')!r} is not 'Name <email>'",
        )
        depends = {d.strip().split(" ")[0] for d in field("Depends").split(",")}

        contents = run(["dpkg-deb", "--contents", deb]).stdout
        files = {line.split()[-1].lstrip(".") for line in contents.splitlines()}
        expected = [
            "/usr/bin/sutra-cli",
            "/usr/share/doc/sutra/copyright",
            "/usr/share/doc/sutra/changelog.gz",
        ]
        if on(gui):
            expected += [
                "/usr/bin/sutra",
                "/usr/share/applications/sutra.desktop",
                "/usr/share/icons/hicolor/scalable/apps/sutra.svg",
                "/usr/share/metainfo/io.github.sutra.Sutra.metainfo.xml",
                "/usr/share/mime/packages/sutra.xml",
            ]
        if on(man):
            expected += ["/usr/share/man/man1/sutra-cli.1.gz"]
        for path in expected:
            check(path in files, f"the package does not install {path}")

        root = os.path.join(out, "root")
        run(["dpkg-deb", "--extract", deb, root])
        for binary in ("sutra-cli", "sutra") if on(gui) else ("sutra-cli",):
            path = os.path.join(root, "usr/bin", binary)
            dynamic = run(["readelf", "--dynamic", path]).stdout
            check(".debug_info" not in run(["readelf", "-S", path]).stdout, f"{binary} is not stripped")
            needed = re.findall(r"\(NEEDED\)\s+Shared library: \[(.+?)\]", dynamic)
            resolved = dict(re.findall(r"^\s*(\S+) => (/\S+)", run(["ldd", path]).stdout, re.M))
            owners = owning_packages([resolved[s] for s in needed if s in resolved])
            for soname in needed:
                package = owners.get(resolved.get(soname))
                ok = package is not None and package in depends
                check(ok, f"{binary} links {soname} from package {package}, not in Depends")
                print(f"{binary}: {soname} -> {package}{'' if ok else '  MISSING'}")
    print(f"{len(failures)} failed" if failures else "the package is complete")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
