"""The corpus stage: parse → check → write. `formats/` holds one parser per source format behind
one registry; `build` writes and reads corpora; `acts` adds instruments by CELEX or PDF."""
