-- Full-text ranking reads every match's tsvector, and an every-word query ranks all its matches. Left EXTENDED, a
-- passage's tsvector was compressed and often moved to TOAST with the other wide columns, so ranking a common word
-- fetched and decompressed TOAST per match (EXPLAIN on 20,000 passages, a word in 10,841 of them: 101,633 buffers).
-- MAIN keeps it in the heap row (the toaster moves text, tokens and embedding out first): 8,346 buffers, about 3x
-- faster. Rows written before this keep their layout until rewritten.
ALTER TABLE "knowledge_chunks" ALTER COLUMN "tsv" SET STORAGE MAIN;
