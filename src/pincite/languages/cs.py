"""Czech: what pincite knows of the language (pincite.languages) — so far only what parsing and checking
its EUR-Lex acts read; its questions' cues and its sentences' negations are not read yet."""

# corpus.formats.eurlex: the title of a definitions article (lower-cased).
EURLEX = {
    "definitions_title": "definice",
}
