"""Benchmarks: run each module as a script (see README.md in this folder)."""
