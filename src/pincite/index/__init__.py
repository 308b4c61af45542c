"""The index stage: provisions → units (what is embedded and keyword-indexed) → a store.
`analysis` (tokenisers, Thai included), `embed` (embedders), `keyword` (BM25 postings),
`units`, `build`, and `store/` (the Store protocol and its implementations)."""
