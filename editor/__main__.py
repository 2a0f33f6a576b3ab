"""``python -m editor``: the same as the ``stet`` command."""

import multiprocessing
import sys

from editor.cli import main

if __name__ == "__main__":
    # A frozen build re-enters here in spawned worker processes (speech recognition, the
    # window's restoration worker: editor.restore.passes.pass_process).
    multiprocessing.freeze_support()
    sys.exit(main())
