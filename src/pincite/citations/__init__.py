"""Citations: the label grammar (read, write, compare), citations in running text, and the
one reader of a provision's text layout (paragraph lines, points, nesting)."""

from pincite.citations.grammar import (
    CITATION_KINDS,
    RULE_PATTERN,
    TEXT_RULE_PATTERN,
    Citation,
    contains,
    find_citations,
    format_label,
    hits,
    parse_label,
    same,
    sort_key,
)
from pincite.citations.layout import (
    joined,
    local_label,
    point_label,
    point_lines,
    point_text,
    split_points,
    squash,
    strip_number,
    top_point_lines,
    top_points,
)

__all__ = [
    "CITATION_KINDS", "RULE_PATTERN", "TEXT_RULE_PATTERN", "Citation", "contains", "find_citations",
    "format_label", "hits", "joined", "local_label", "parse_label", "point_label", "point_lines",
    "point_text", "same", "sort_key", "split_points", "squash", "strip_number", "top_point_lines",
    "top_points",
]
