"""Evaluation: question files with gold provisions, run against the real service."""
