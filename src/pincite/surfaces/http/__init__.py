"""The HTTP API and the web page (`pincite serve`): app (routes), guard (keys, limits, access
log), sse (streamed answers)."""
