"""Rows of embeddings as the index and retrieval take them: float32, L2-normalised."""

from __future__ import annotations

import numpy as np


def normalised(matrix: np.ndarray) -> np.ndarray:
    matrix = matrix.astype(np.float32, copy=False)
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return matrix / norms
