"""The index at question time: the store (Qdrant edge or server), the dense and BM25 encoders,
hybrid search, access filter, reranks, the four zoom tools and `KnowledgeBase`, their face to the
rest; also the text primitives every layer shares (language, sentence splitting). Imports nothing
above it."""
