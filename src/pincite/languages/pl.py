"""Polish: what pincite knows of the language (pincite.languages) — so far only what parsing and checking
its EUR-Lex acts read; its questions' cues and its sentences' negations are not read yet."""

# corpus.formats.eurlex: the title of a definitions article (lower-cased) and the word a section heading
# inside an annex opens with.
EURLEX = {
    "annex_section": r"sekcja",
    "definitions_title": "definicje",
}

# corpus.checks: the title of a definitions article, which must have been split into its definitions.
CHECKS = {"definitions_title": "definicje"}
