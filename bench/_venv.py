"""Run a bench script under the project's venv, whatever python started it.

    from _venv import REPO_ROOT, use_venv
    use_venv("pypdf")      # before importing the pinned dependencies or agentkit

When a module the bench needs is missing and .venv/ exists, the script is started again with the
venv's python (same arguments); the checkout then goes on sys.path, so `import agentkit` works.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
VENV_PYTHON = REPO_ROOT / ".venv" / "bin" / "python"


def use_venv(*modules: str) -> None:
    try:
        for module in modules:
            importlib.import_module(module)  # only to learn whether this interpreter has the dependencies
    except ImportError:
        if VENV_PYTHON.exists() and Path(sys.prefix).resolve() != VENV_PYTHON.parents[1].resolve():
            os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), *sys.argv])
        raise
    if str(REPO_ROOT) not in sys.path:
        sys.path.insert(0, str(REPO_ROOT))
