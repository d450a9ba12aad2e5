;; `where` predicates and the aggregators (PTC-Lisp extensions).
;; Run: cargo run -- run lisp-examples/order-queries.clj --data orders=lisp-examples/orders.json
(defn total [o] (* (:qty o) (:price o)))

(def shipped (filter (where :status = "shipped") data/orders))
(def big (filter (all-of (where :status = "shipped") (where :qty >= 3)) data/orders))

{:shipped-ids (pluck :id shipped)
 :shipped-revenue (sum-by total shipped)
 :average-qty (avg-by :qty data/orders)
 :largest (:id (max-by total data/orders))
 :big-shipped (pluck :customer big)
 :not-cancelled (count (filter (none-of (where :status = "cancelled")) data/orders))}
