#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Holds core's #include lines to the areas each area declares (core/CMakeLists.txt).

An area's files may include "<area>/..." only for the area itself or one it depends on, directly
or through another: so no header of a lower area includes a higher one, which the linker alone
would not notice (static libraries link in any order that resolves). Reads the declarations
configure writes (core_areas.txt in the build tree: an area, its folder and the areas it depends
on, tab-separated, one a line); exits 1 naming each file and line that breaks the rule.

Usage: check_core_includes.py BUILD_DIR/core_areas.txt
"""

import re
import sys
from pathlib import Path

INCLUDE = re.compile(r'^\s*#\s*include\s*"([A-Za-z0-9_]+)/')
SOURCE_SUFFIXES = {".h", ".hpp", ".cpp", ".cc", ".inc"}


def read_areas(listing: Path) -> tuple[dict[str, Path], dict[str, list[str]]]:
    folders: dict[str, Path] = {}
    depends: dict[str, list[str]] = {}
    for number, line in enumerate(listing.read_text().splitlines(), 1):
        fields = line.split("\t")
        if len(fields) != 3 or not fields[0]:
            sys.exit(f"{listing}:{number}: expected 'area<TAB>folder<TAB>areas', got {line!r}")
        area, folder, names = fields
        # A relative folder is taken from the listing's own folder (the test fixtures' listings).
        folders[area] = listing.parent / folder
        depends[area] = names.split()
    for area, names in depends.items():
        for name in names:
            if name not in depends:
                sys.exit(f"{listing}: area {area} depends on {name}, which is not declared")
    return folders, depends


def reachable(area: str, depends: dict[str, list[str]]) -> set[str]:
    """The area and every area it depends on, directly or through another."""
    seen = {area}
    pending = [area]
    while pending:
        for name in depends[pending.pop()]:
            if name not in seen:
                seen.add(name)
                pending.append(name)
    return seen


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    listing = Path(sys.argv[1])
    folders, depends = read_areas(listing)
    problems = []
    for area, folder in folders.items():
        if not folder.is_dir():
            problems.append(f"{folder}: the folder of area {area} is missing")
            continue
        allowed = reachable(area, depends)
        for path in sorted(folder.rglob("*")):
            if path.suffix not in SOURCE_SUFFIXES:
                continue
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            for number, line in enumerate(lines, 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                included = match.group(1)
                if included in depends and included not in allowed:
                    problems.append(
                        f"{path}:{number}: area {area} includes {included}/, which it does not"
                        f" depend on (it may include: {', '.join(sorted(allowed))})"
                    )
    # A folder beside the areas that no one declared would escape the rule.
    roots = {folder.parent for folder in folders.values()}
    for root in sorted(roots):
        for folder in sorted(p for p in root.iterdir() if p.is_dir()):
            if folder not in folders.values() and (folder / "CMakeLists.txt").exists():
                problems.append(f"{folder}: a folder of core that is not a declared area")
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} include(s) against the declared core areas ({listing})")
        return 1
    print(f"{len(folders)} core areas: every include names the area or one it depends on")
    return 0


if __name__ == "__main__":
    sys.exit(main())
