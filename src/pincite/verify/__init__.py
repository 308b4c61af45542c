"""The verify stage: an answer's sentences checked in code against the provisions they cite."""
