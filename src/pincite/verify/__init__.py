"""The verify stage: an answer's sentences checked in code against the provisions they cite."""

from __future__ import annotations

import sys
import types


class _Stage(types.ModuleType):
    """`pincite.verify` names both this package and the public function of `pincite`: importing the
    package (the service does) sets the package as the attribute `verify` of `pincite`, in place of the
    function. Calling the package calls the function, so `pincite.verify(...)` works in either order."""

    def __call__(self, text: str, **kwargs) -> dict:
        # the package's own function: imported at call time, as the package is imported first
        from pincite import _verify_text

        return _verify_text(text, **kwargs)


sys.modules[__name__].__class__ = _Stage
