;; loop/recur, cond, str and println.
(defn fizzbuzz [n]
  (cond (zero? (mod n 15)) "FizzBuzz"
        (zero? (mod n 3)) "Fizz"
        (zero? (mod n 5)) "Buzz"
        :else n))

(loop [i 1]
  (when (<= i 15)
    (println (fizzbuzz i))
    (recur (inc i))))

(count (filter string? (map fizzbuzz (range 1 101))))
