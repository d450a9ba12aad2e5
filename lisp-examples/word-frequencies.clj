;; Text processing the way LLMs write it: split, normalise, count, rank.
;; Run: cargo run -- run lisp-examples/word-frequencies.clj
(def text "The quick brown fox jumps over the lazy dog. The dog sleeps;
the fox, being quick, jumps again.")

(def words
  (->> (str/split (str/lower-case text) #"[^a-z]+")
       (remove str/blank?)))

(def top (->> (frequencies words)
              (sort-by (fn [[w n]] [(- n) w]))
              (take 3)))

(doseq [[w n] top]
  (println (format "%-6s %d" w n)))

{:words (count words) :distinct (count (set words)) :top (mapv first top)}
