"""German: what pincite knows of the language (pincite.languages) — so far only what parsing and checking
its EUR-Lex acts read; its questions' cues and its sentences' negations are not read yet."""

# corpus.formats.eurlex: the title of a definitions article (lower-cased) and the word a section heading
# inside an annex opens with.
EURLEX = {
    "annex_section": r"abschnitt",
    "definitions_title": "begriffsbestimmungen",
}

# corpus.checks: the title of a definitions article, which must have been split into its definitions.
CHECKS = {"definitions_title": "begriffsbestimmungen"}

# index.analysis: the Snowball stemmer (PyStemmer) the keyword index stems this language with.
STEMMER = "german"
