# SPDX-License-Identifier: MIT
"""Progress of a long load: a callable the caller gives, or a tqdm bar where tqdm is installed."""

from __future__ import annotations

from collections.abc import Callable

ProgressCallback = Callable[[int, str], object]


class _TqdmProgress:
    """Shows core's percentages on a tqdm bar (tqdm.auto: a widget in Jupyter)."""

    def __init__(self, tqdm_class, desc: str):
        self._bar = tqdm_class(total=100, desc=desc, unit="%", leave=False)
        self._shown = 0

    def __call__(self, percent: int, what: str) -> None:
        self._bar.set_postfix_str(what, refresh=False)
        self._bar.update(max(0, percent - self._shown))
        self._shown = max(self._shown, percent)

    def close(self) -> None:
        self._bar.close()


class progress_reporter:
    """Context manager giving the callable that core's progress goes to (or None).

    ``progress``: True shows a tqdm bar where tqdm is installed (nothing otherwise), False shows
    nothing, a callable is called as ``progress(percent, what)`` on the calling thread; raising in
    it (KeyboardInterrupt included) cancels the load.
    """

    def __init__(self, progress: bool | ProgressCallback, desc: str):
        self._progress = progress
        self._desc = desc
        self._bar: _TqdmProgress | None = None

    def __enter__(self) -> ProgressCallback | None:
        if callable(self._progress):
            return self._progress
        if not self._progress:
            return None
        try:
            from tqdm.auto import tqdm
        except ImportError:
            return None
        self._bar = _TqdmProgress(tqdm, self._desc)
        return self._bar

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.close()
