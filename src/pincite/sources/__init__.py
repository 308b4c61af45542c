"""The sources stage: authoritative bytes (EUR-Lex and Cellar by CELEX and language, PDFs), read
through the mirror directory or fetched from the publisher, kept with their sha256; and the
catalog of named and added corpora."""
