"""The retrieve stage: the question analysed once (`query`), dense and BM25 candidates from the
store, fusion, a reranker slot, exact lookup of named provisions, and several corpora at once."""
