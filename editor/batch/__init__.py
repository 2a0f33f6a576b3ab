"""Many inputs in one command: `stet restore|transcribe|convert` over files, folders and globs.

Above restore and asr (it drives both) and below the command line; nothing but ``editor.cli``
imports it. :mod:`plan` says what to read and write, :mod:`jobs` what to do to one file,
:mod:`local` runs the workers on this machine and :mod:`cluster` on a Ray cluster.
"""
