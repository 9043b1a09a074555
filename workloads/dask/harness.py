"""Entry point of nightbench's Dask suite: ``harness.py list|ready|reset|run NAME``.

suite.json tells the runner to call this file with /usr/bin/python3 (the interpreter
that has Dask). The protocol is described in workloads/README.md.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from nightbench_dask.cli import main  # noqa: E402  (needs the path above)

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
