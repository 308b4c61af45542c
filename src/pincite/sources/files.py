"""Writing a file so that a failure loses nothing: a temporary name of this writer's own in the same
folder, flushed, then renamed over the old file. A reader sees the old file or the new one, two
writers never share a temporary file, and a full disk ends in one `WriteError` that names the file
instead of an `OSError` without a file name or a half-written file."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import IO

from pincite.errors import WriteError


def write_atomic(path: Path, data: bytes | str | Callable[[IO[str]], None], *, mode: int | None = None) -> None:
    """Replace `path` with `data` (bytes, text, or a function writing text to the open file)."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, bytes):
            with tmp.open("wb") as out:
                out.write(data)
                _sync(out)
        else:
            with tmp.open("w", encoding="utf-8", newline="\n") as out:
                if callable(data):
                    data(out)
                else:
                    out.write(data)
                _sync(out)
        if mode is not None:
            tmp.chmod(mode)
        tmp.replace(path)
    except OSError as exc:
        raise write_error(path, exc) from exc
    finally:
        tmp.unlink(missing_ok=True)


def write_error(path: Path | str, exc: BaseException) -> WriteError:
    """The one message for a write that failed: which file, why, and what to do."""
    why = getattr(exc, "strerror", None) or str(exc)
    return WriteError(f"could not write {path} ({why}) — free space on its disk or fix the data "
                      f"directory's permissions (PINCITE_HOME), then run again; nothing was changed")


def _sync(out: IO) -> None:
    # Without fsync a crash after the rename can leave an empty file under the new name.
    out.flush()
    os.fsync(out.fileno())
