"""Evaluation: question files with gold provisions (DESIGN.md §5), run against the real service."""
