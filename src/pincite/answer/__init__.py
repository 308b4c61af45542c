"""The answer stage: the relevance gate, extractive answers, LLM answers (llm/ holds one module
per provider), and the pipeline that joins them behind the Answerer seam."""
